import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Reads the env file before anything reads the environment: `ENV_FILE`, else
 * `.env` in the working directory. Node's own loader sets only variables the
 * real environment does not have, so a deployment's settings always win over
 * the file. Returns the file read, or null.
 *  - `.env` missing: nothing is read (the usual case in containers);
 *  - `ENV_FILE` set but missing: one line naming it, and the app does not start;
 *  - `ENV_FILE=` (empty): no file is read (the tests start servers this way).
 */
export function loadEnvFile(
  environment: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): string | null {
  const configured = environment.ENV_FILE;
  const file = configured ?? ".env";
  if (file === "") return null;
  if (!existsSync(path.resolve(cwd, file))) {
    if (configured === undefined) return null;
    throw new Error(`Invalid environment: ENV_FILE names a file that does not exist: ${file}`);
  }
  process.loadEnvFile(path.resolve(cwd, file));
  return file;
}
