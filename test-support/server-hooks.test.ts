/**
 * What the spec files keep to, read from their source. A `beforeAll` that starts a server gives
 * itself the server's time slot: Playwright gives a hook the test's limit, below what a start may
 * take on a loaded machine (SERVER_HOOK_LIMIT_MS in app-server.ts), and such a hook failed only on
 * slow days. An e2e spec takes `test` from the suite's helpers: Playwright's own has other
 * fixtures, so its files got workers of their own, each with a browser, and ran after all the rest
 * (docs/decisions/0087).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SPEC_DIRS = ["e2e", "deploy/checks"];
const STARTS_SERVER = /\b(startApp|startDevServer)\(/;
// A hook that starts more than the app (a database, say) may give itself a multiple.
const SETS_LIMIT = /test\.setTimeout\(SERVER_HOOK_LIMIT_MS( \* [0-9]+)?\)/;

/** Each `beforeAll` body in `source`: from its opening line to the first line that closes it at the same indent. */
function beforeAllBodies(source: string): string[] {
  const lines = source.split("\n");
  const bodies: string[] = [];
  lines.forEach((line, index) => {
    const opening = /^(\s*)test\.beforeAll\(/.exec(line);
    if (!opening) return;
    const closing = lines.findIndex((other, at) => at > index && other.startsWith(`${opening[1]}});`));
    bodies.push(lines.slice(index, closing < 0 ? undefined : closing + 1).join("\n"));
  });
  return bodies;
}

const specs = SPEC_DIRS.flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".spec.ts"))
    .map((name) => path.join(dir, name)),
);

describe("hooks that start a server", () => {
  it("finds the bodies of beforeAll hooks", () => {
    const source = 'test.beforeAll(async () => {\n  app = await startApp();\n});\n\ntest("x", () => {});\n';
    expect(beforeAllBodies(source)).toEqual(["test.beforeAll(async () => {\n  app = await startApp();\n});"]);
  });

  it.each(specs)("%s sets the server's time slot in each such hook", (spec) => {
    const hooks = beforeAllBodies(readFileSync(path.join(ROOT, spec), "utf8"));
    for (const hook of hooks.filter((body) => STARTS_SERVER.test(body))) expect(hook).toMatch(SETS_LIMIT);
  });
});

describe("the e2e suite's specs", () => {
  // Types only from Playwright: a value import brings its own `test`, `expect` or fixtures.
  const PLAYWRIGHT_VALUES = /^import \{[^}]*\} from "@playwright\/test";/m;
  it.each(specs.filter((spec) => spec.startsWith("e2e")))(
    "%s takes test from the suite's helpers",
    (spec) => {
      expect(readFileSync(path.join(ROOT, spec), "utf8")).not.toMatch(PLAYWRIGHT_VALUES);
    },
  );
});
