/** Before Vite loads: picocolors decides as it loads, reading the variables otherwise than Node. Only erasable TypeScript. */
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
