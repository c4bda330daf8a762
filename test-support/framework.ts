import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The framework this tree runs on: Remix 2, or React Router 8 once
 * `npm run upgrade:react-router` has run. For the few tests whose expected
 * answer is the framework's own protocol, not the scaffold's behaviour
 * (docs/upgrading-to-react-router-8.md, "What changes for an operator").
 */
const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

export const FRAMEWORK: "remix-2" | "react-router-8" =
  "react-router" in pkg.dependencies ? "react-router-8" : "remix-2";

/** The framework's name in reports (the bench's bare baseline is this framework alone). */
export const FRAMEWORK_NAME = FRAMEWORK === "remix-2" ? "Remix" : "React Router";
