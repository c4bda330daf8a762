import { styleText } from "node:util";

/** Node's own answer, which the pretty logger and `npm run dev` (server/dev/colours.ts) share. */
export function stdoutHasColours(): boolean {
  const probe = "x";
  return styleText("red", probe, { stream: process.stdout }) !== probe;
}
