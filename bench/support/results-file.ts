/** Reads a results file `npm run bench` wrote (bench/results/<timestamp>.json). */
import { readFileSync } from "node:fs";
import type { Summary } from "./report";

export interface Results {
  commit?: string;
  startedAt: string;
  summaries: Summary[];
}

/** Throws one line naming the file when it is not a results file. */
export function readResults(file: string): Results {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: not a results file of npm run bench (${(error as Error).message})`);
  }
  const results = json as Partial<Results> | null;
  if (!results || !Array.isArray(results.summaries) || typeof results.startedAt !== "string")
    throw new Error(`${file}: not a results file of npm run bench (no summaries)`);
  return results as Results;
}
