/**
 * `npm run bench -- <command> [options]`: the laboratory's one entry, which `npm run init`
 * removes with bench/. Each command is a module of its own, run in this process.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { BUILDS, ensureBuild, routeCountBuilds, type BuildSpec } from "./support/builds";

const USAGE = `usage: npm run bench -- [command] [options]   (bench/README.md)
  goals        every speed and memory goal the docs state, one table; exit 1 on a goal missed
  run          (the default) what the scaffold costs against the bare app: throughput, latency, CPU, memory
  profile      where one target's CPU goes, per request
  startup      start-up time and resident memory
  streaming    static transactions against the SDK's span streaming, against Sentry off
  soak         resident memory over minutes of mixed requests, and the live heap by owner
  client-js    the initial JavaScript of / against its budget
  sdk-parts    the SDK's public transport and request skip against the app's own (docs/decisions/0082)
  trace-cost   a traced request's CPU against an untraced one (e2e build)
  sentry-logs  what SENTRY_LOGS_LEVEL=info costs a request (e2e build)
  channel-injection        the SDK's channel injection on, on with Express first, and off (e2e build)
  channel-injection-parts  its load and per-call parts, in fresh processes
  compare-builds --before <dir> --after <dir>   a change's cost: two bench builds in interleaved rounds
  compare-goals <before.json> <after.json>      Sentry's cost goals of two earlier runs side by side
  build <bench|baseline|documented> [--routes <n>]   one of the benchmark's builds, made again
Each command's options: npm run bench -- <command> --help`;

/** Modules that read their options from process.argv, as when run on their own. */
const MODULES: Record<string, string> = {
  goals: "./goals.ts",
  run: "./run.ts",
  profile: "./profile.ts",
  startup: "./startup.ts",
  streaming: "./streaming.ts",
  soak: "./soak.ts",
  "sdk-parts": "./sdk-parts-cost.ts",
  "trace-cost": "./trace-cost.ts",
  "sentry-logs": "./sentry-logs-cost.ts",
  "channel-injection": "./channel-injection.ts",
  "channel-injection-parts": "./channel-injection-parts.ts",
  "compare-builds": "./compare-builds.ts",
  "compare-goals": "./goals-before-after.ts",
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
    if (values.help) return console.log("usage: npm run bench -- client-js   (BENCH_BUILD as in the run)");
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
