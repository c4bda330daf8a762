/**
 * `npm run bench -- <command> [options]`: the laboratory's one entry, which `npm run init`
 * removes with bench/. Each command is a module of its own, run in this process; its --help is
 * answered from bench/usages.ts before anything is loaded.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { BuildSpec } from "./support/builds";
import { USAGES, type BenchCommand } from "./usages";

/** Modules that read their options from process.argv, as when run on their own. */
const MODULES: Record<Exclude<BenchCommand, "build" | "client-js">, string> = {
  goals: "./goals.ts",
  run: "./run.ts",
  profile: "./profile.ts",
  streaming: "./streaming.ts",
  soak: "./soak.ts",
  "sdk-parts": "./sdk-parts-cost.ts",
  "trace-cost": "./trace-cost.ts",
  "channel-injection": "./channel-injection.ts",
  "compare-builds": "./compare-builds.ts",
};

const isCommand = (name: string): name is BenchCommand | "help" => Object.hasOwn(USAGES, name);

/** The build named. */
async function buildSpec(args: string[]): Promise<BuildSpec> {
  const { BUILDS, routeCountBuilds } = await import("./support/builds");
  const { values, positionals } = parseArgs({
    args,
    options: { routes: { type: "string" } },
    allowPositionals: true,
  });
  const [which] = positionals;
  if (positionals.length !== 1) throw new Error(USAGES.build);
  if (values.routes === undefined) {
    if (which === "bench" || which === "baseline") return BUILDS[which];
    if (which === "documented") return routeCountBuilds(1).documented;
  } else {
    const builds = routeCountBuilds(Number(values.routes));
    if (which === "bench") return builds.app;
    if (which === "baseline" || which === "documented") return builds[which];
  }
  throw new Error(`unknown build ${which}\n${USAGES.build}`);
}

async function main(argv: string[]): Promise<void> {
  const named = argv[0] === undefined || argv[0].startsWith("-") ? "run" : argv[0];
  const rest = named === argv[0] ? argv.slice(1) : argv;
  if (!isCommand(named)) throw new Error(`unknown command ${named}\n${USAGES.help}`);
  if (named === "help" || rest.includes("--help") || rest.includes("-h")) return console.log(USAGES[named]);
  if (named === "build") {
    const { ensureBuild } = await import("./support/builds");
    return ensureBuild(await buildSpec(rest), "always", (line) => console.error(line));
  }
  if (named === "client-js") return (await import("./client-js")).main();
  const module = MODULES[named];
  process.argv = [process.argv[0]!, path.join(import.meta.dirname, module), ...rest];
  await import(module);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
