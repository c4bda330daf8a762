/**
 * `npm run bench -- <command> [options]`: the laboratory's one entry, which `npm run init`
 * removes with bench/. Each command is a module of its own, run in this process.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { BUILDS, ensureBuild, routeCountBuilds, type BuildSpec } from "./support/builds";

const USAGE = `usage: npm run bench -- [command] [options]   (bench/README.md)
Each command re-checks a goal or a decision record, named here and in its --help.
  goals        every speed and memory goal the docs state, one table; exit 1 when a held goal is missed
  run          (the default) the scaffold against bare Remix at 1, 100 and 300 routes: decisions 0030, 0031
  profile      where one target's CPU goes, per request: the cause of a goal missed
  soak         resident memory over minutes, and the live heap by owner: the memory goals, past a short run
  client-js    the initial JavaScript of / against its budget over the bare app: the client JS goals
  streaming    static transactions against span streaming: decisions 0057, 0083
  sdk-parts    the SDK's transport and request skip against the app's own: decision 0082
  trace-cost   a traced request's CPU against an untraced one: the default trace cap, decisions 0080, 0090
  channel-injection        the SDK's channel injection on, on with Express first, and off: decision 0079
  compare-builds --before <dir> --after <dir>   a change's cost, two bench builds interleaved: decisions 0062, 0085
  build <bench|baseline|documented> [--routes <n>]   one of the benchmark's builds, made again
Each command's options: npm run bench -- <command> --help`;

/** Modules that read their options from process.argv, as when run on their own. */
const MODULES: Record<string, string> = {
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

const BUILD_USAGE = "usage: npm run bench -- build <bench|baseline|documented> [--routes <n>]";

/** The build named, or undefined when only its usage was asked for. */
function buildSpec(args: string[]): BuildSpec | undefined {
  const { values, positionals } = parseArgs({
    args,
    options: { routes: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
  if (values.help) return void console.log(BUILD_USAGE);
  const [which] = positionals;
  if (positionals.length !== 1) throw new Error(BUILD_USAGE);
  if (values.routes === undefined) {
    if (which === "bench" || which === "baseline") return BUILDS[which];
    if (which === "documented") return routeCountBuilds(1).documented;
  } else {
    const builds = routeCountBuilds(Number(values.routes));
    if (which === "bench") return builds.app;
    if (which === "baseline" || which === "documented") return builds[which];
  }
  throw new Error(`unknown build ${which}\n${BUILD_USAGE}`);
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] === undefined || argv[0].startsWith("-") ? "run" : argv[0];
  const rest = command === argv[0] ? argv.slice(1) : argv;
  if (command === "help") return console.log(USAGE);
  if (command === "build") {
    const spec = buildSpec(rest);
    return spec && ensureBuild(spec, "always", (line) => console.error(line));
  }
  if (command === "client-js") {
    const { values } = parseArgs({ args: rest, options: { help: { type: "boolean", short: "h" } } });
    if (values.help)
      return console.log(
        "usage: npm run bench -- client-js   (BENCH_BUILD as in the run)\nRe-checks the client JavaScript goals over the bare app.",
      );
    return (await import("./client-js")).main();
  }
  const module = MODULES[command];
  if (!module) throw new Error(`unknown command ${command}\n${USAGE}`);
  process.argv = [process.argv[0]!, path.join(import.meta.dirname, module), ...rest];
  await import(module);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
