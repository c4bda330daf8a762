/**
 * Imported first by server/dev.ts, before Vite loads: makes Vite's colour
 * library agree with Node on whether `npm run dev` writes colours. Vite's own
 * lines are coloured by picocolors, which decides once, as it loads, from the
 * variables and reads them otherwise than Node does (a pipe gets colour under
 * CI or FORCE_COLOR=0). Node's answer (app/logging/stdout-colours.ts), which
 * the pretty logger also uses, is written back as the variables picocolors reads.
 *
 * Run by Node itself (type stripping): only erasable TypeScript here.
 */
import { stdoutHasColours } from "../app/logging/stdout-colours.ts";

if (stdoutHasColours()) {
  // Node honours FORCE_COLOR over NO_COLOR; picocolors the other way round.
  delete process.env.NO_COLOR;
  // An empty FORCE_COLOR is colour to Node, not to picocolors.
  if (process.env.FORCE_COLOR === "") process.env.FORCE_COLOR = "1";
} else {
  process.env.NO_COLOR = "1";
  delete process.env.FORCE_COLOR;
}
