/**
 * Tries each update group of `.github/dependabot.yml` at what its pull request
 * would offer today, each in a scratch copy of this tree: `npm install` of the
 * group's packages (never with --legacy-peer-deps: a peer conflict is a
 * result), then the test steps, through the project's own test runner. A team
 * learns what an update breaks before the pull request does
 * (docs/updating-dependencies.md). Then whether tools/spotlight/ still needs its
 * hono pin (spotlight-pin.ts).
 *
 *   npx tsx scripts/try-updates/run.ts                      every group; the core steps
 *   npx tsx scripts/try-updates/run.ts sentry vite          those groups only
 *   npx tsx scripts/try-updates/run.ts spotlight            the hono pin only
 *   npx tsx scripts/try-updates/run.ts --steps typecheck,test:unit
 *   npx tsx scripts/try-updates/run.ts --lift-holds         the held-back majors too
 *
 * Prints one Markdown table (also to $GITHUB_STEP_SUMMARY) and keeps each
 * group's output under --logs (default: a temporary folder); exits 1 when a
 * group fails.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { newestInRange, updateGroups, type UpdateGroup } from "./groups";
import { SPOTLIGHT, tryWithoutPin } from "./spotlight-pin";
import {
  cleanUpOnSignals,
  installedIn,
  keepExactPins,
  readJson,
  removeScratch,
  run,
  scratchCopy,
} from "./scratch";

const ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * The core of `npm test` (docs/testing.md: typecheck, unit tests, builds, production smoke, core
 * specs) and the lint: an ESLint or typescript-eslint update shows itself there first.
 */
const CORE_STEPS = ["typecheck", "lint", "test:unit", "build", "build:e2e", "test:smoke", "test:e2e --core"];
/** npm can loop on a peer conflict without end (seen with TypeScript 7): a bound, with headroom. */
const INSTALL_TIMEOUT_MS = 30 * 60_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { steps: { type: "string" }, "lift-holds": { type: "boolean" }, logs: { type: "string" } },
});
const steps = values.steps?.split(",") ?? CORE_STEPS;
const logs = values.logs ?? mkdtempSync(path.join(tmpdir(), "try-updates-logs-"));
mkdirSync(logs, { recursive: true });

cleanUpOnSignals();
const nameOf = (spec: string) => spec.slice(0, spec.lastIndexOf("@"));

interface Outcome {
  group: string;
  moved: string;
  result: string;
  ok: boolean;
}

async function tryGroup(group: UpdateGroup): Promise<Outcome> {
  const log = path.join(logs, `${group.name}.log`);
  const dir = scratchCopy();
  const before = installedIn(ROOT);
  try {
    const install = await run(
      "npm",
      ["install", "--no-audit", "--no-fund", ...group.specs],
      dir,
      log,
      INSTALL_TIMEOUT_MS,
    );
    if (install !== 0) {
      const text = readFileSync(log, "utf8");
      const why =
        install === "timeout"
          ? "did not finish"
          : /ERESOLVE/.test(text)
            ? "peer conflict (ERESOLVE)"
            : `exit ${install}`;
      return { group: group.name, moved: group.specs.join(" "), result: `npm install: ${why}`, ok: false };
    }
    // npm runs the project's own install scripts only for a bare `npm install`: the patches, as `npm ci` applies them.
    if (readJson<{ scripts: Record<string, string> }>(path.join(dir, "package.json")).scripts.postinstall) {
      const patched = await run("npm", ["run", "postinstall"], dir, log);
      if (patched !== 0)
        return {
          group: group.name,
          moved: group.specs.join(" "),
          result: "postinstall (patches/) FAILED",
          ok: false,
        };
    }
    if (keepExactPins(dir, group.specs.map(nameOf)).length > 0)
      await run("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund"], dir, log);
    const after = installedIn(dir);
    const moved = group.specs
      .map(nameOf)
      .map((name) =>
        before(name) === after(name) ? `${name} ${after(name)}` : `${name} ${before(name)} → ${after(name)}`,
      )
      .join(", ");
    const results: string[] = [];
    for (const step of steps) {
      const code = await run("node", ["scripts/run-tests.mjs", step], dir, log);
      results.push(`${step} ${code === 0 ? "passed" : "FAILED"}`);
      if (code !== 0) return { group: group.name, moved, result: results.join(", "), ok: false };
    }
    return { group: group.name, moved, result: results.join(", "), ok: true };
  } finally {
    removeScratch(dir);
  }
}

/** `name@^major` as the version it stands for (groups.ts, `newestInRange`); `name@latest` as it is. */
const concrete = (spec: string) =>
  /@\^\d+$/.test(spec)
    ? `${nameOf(spec)}@${newestInRange(execFileSync("npm", ["view", spec, "version", "--json"], { encoding: "utf8" }))}`
    : spec;

const groups = updateGroups(
  readFileSync(path.join(ROOT, ".github/dependabot.yml"), "utf8"),
  readJson(path.join(ROOT, "package.json")),
  installedIn(ROOT),
  { liftHolds: values["lift-holds"] === true },
)
  .filter((group) => group.specs.length > 0 && (positionals.length === 0 || positionals.includes(group.name)))
  .map((group) => ({ ...group, specs: group.specs.map(concrete) }));

const outcomes: Outcome[] = [];
async function tried(name: string, what: string, attempt: () => Promise<Outcome>) {
  console.log(`try-updates: ${name}: ${what}`);
  const started = Date.now();
  const outcome = await attempt();
  console.log(`try-updates: ${name}: ${outcome.result} (${Math.round((Date.now() - started) / 1000)} s)`);
  outcomes.push(outcome);
}
for (const group of groups)
  await tried(group.name, `npm install ${group.specs.join(" ")}`, () => tryGroup(group));
// No pull request says when tools/spotlight/'s hono pin can go: this row does.
if (positionals.length === 0 || positionals.includes("spotlight")) {
  const newest = execFileSync("npm", ["view", SPOTLIGHT, "version"], { encoding: "utf8" }).trim();
  await tried("spotlight", `${SPOTLIGHT} ${newest} and the pinned one, without the hono pin`, async () => ({
    group: "spotlight (hono pin)",
    ...(await tryWithoutPin(newest, path.join(logs, "spotlight.log"))),
  }));
}
const table = [
  `Update groups tried${values["lift-holds"] ? " with the held-back majors" : ""}: ${steps.join(", ")}. Logs: ${logs}`,
  "",
  "| group | versions | result |",
  "| --- | --- | --- |",
  ...outcomes.map(
    ({ group, moved, result, ok }) => `| ${group} | ${moved} | ${ok ? "" : "**"}${result}${ok ? "" : "**"} |`,
  ),
].join("\n");
console.log(`\n${table}`);
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${table}\n`);
process.exitCode = outcomes.every((outcome) => outcome.ok) ? 0 : 1;
