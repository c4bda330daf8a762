/**
 * `npx tsx scripts/test-titles.ts [--titles]`: every test of the tree by its title, so that a
 * change to the harness can show it lost none. Lists the unit tests (Vitest) and the Playwright
 * suites (e2e, the production smoke, the deploy checks) without running them, one line each,
 * `<suite> <file> › <describe> › <title>`, sorted, then the count per suite. With `--titles`, the
 * titles alone (no suite, file or project), sorted and without duplicates: what two trees must
 * share when tests moved between files or levels (`diff` two runs' outputs).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

interface Listed {
  suite: string;
  file: string;
  titles: string[];
}

interface VitestEntry {
  name: string;
  file: string;
}

function vitest(): Listed[] {
  // Vitest 5 lists by parsing files, which misses the tests a function shared by two files declares.
  const listed = run(bin("vitest"), ["list", "--json", "--staticParse=false"]);
  const entries = JSON.parse(listed) as VitestEntry[];
  return entries.map(({ name, file }) => ({
    suite: "unit",
    file: path.relative(ROOT, file),
    titles: name.split(" > "),
  }));
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; file: string; tests: unknown[] }[];
  suites?: PlaywrightSuite[];
}

function playwright(suite: string, config: string): Listed[] {
  const report = JSON.parse(run(bin("playwright"), ["test", "-c", config, "--list", "--reporter=json"])) as {
    suites: PlaywrightSuite[];
  };
  const listed: Listed[] = [];
  // The top suites are files; below them, describe blocks. A test appears once per project it runs in.
  const walk = (node: PlaywrightSuite, parents: string[], file: string) => {
    for (const spec of node.specs ?? [])
      for (const _ of spec.tests) listed.push({ suite, file, titles: [...parents, spec.title] });
    for (const child of node.suites ?? []) walk(child, [...parents, child.title], file);
  };
  for (const top of report.suites) walk(top, [], top.file ?? top.title);
  return listed;
}

const all = [
  ...vitest(),
  ...playwright("e2e", "e2e/playwright.config.ts"),
  ...playwright("smoke", "e2e/smoke/playwright.config.ts"),
  ...playwright("deploy", "deploy/checks/playwright.config.ts"),
];

if (process.argv.includes("--titles")) {
  for (const title of [...new Set(all.map(({ titles }) => titles.join(" › ")))].sort()) console.log(title);
} else {
  const lines = all.map(({ suite, file, titles }) => `${suite} ${file} › ${titles.join(" › ")}`).sort();
  for (const line of lines) console.log(line);
  const counts = new Map<string, number>();
  for (const { suite } of all) counts.set(suite, (counts.get(suite) ?? 0) + 1);
  console.log(
    `tests: ${[...counts].map(([suite, count]) => `${suite} ${count}`).join(", ")}; ${all.length} in all`,
  );
}
