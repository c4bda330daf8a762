import { styleText } from "node:util";

/**
 * Whether this process should write colours to stdout: Node's own answer, the
 * one `util.styleText` gives for the stream (FORCE_COLOR first, even into a
 * pipe; otherwise only a terminal, whose NO_COLOR, NODE_DISABLE_COLORS and
 * TERM it reads). Shared by the pretty logger and `npm run dev`
 * (server/dev-colours.ts), so both decide alike.
 */
export function stdoutHasColours(): boolean {
  const probe = "x";
  return styleText("red", probe, { stream: process.stdout }) !== probe;
}
