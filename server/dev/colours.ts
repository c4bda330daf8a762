/**
 * Imported before Vite loads: picocolors decides once, as it loads, and reads the variables
 * otherwise than Node does, so Node's answer is written back as what picocolors reads.
 * Run by Node itself (type stripping): only erasable TypeScript here.
 */
import { stdoutHasColours } from "../../app/logging/stdout-colours.ts";

if (stdoutHasColours()) {
  // Node honours FORCE_COLOR over NO_COLOR; picocolors the other way round.
  delete process.env.NO_COLOR;
  // An empty FORCE_COLOR is colour to Node, not to picocolors.
  if (process.env.FORCE_COLOR === "") process.env.FORCE_COLOR = "1";
} else {
  process.env.NO_COLOR = "1";
  delete process.env.FORCE_COLOR;
}
