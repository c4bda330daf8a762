/**
 * Every command's usage, which `npm run bench -- <command> --help` prints from here without loading
 * the command (a load costs each --help a second of CPU), and which the command names in its errors.
 */

/** The goals command's sections (bench/goals.ts runs each; --only picks some). */
export const GOAL_SECTIONS = ["start", "cost", "forged", "ingest", "ingest-memory", "attack"] as const;
export type GoalSectionName = (typeof GOAL_SECTIONS)[number];

export const USAGES = {
  help: `usage: npm run bench -- [command] [options]   (bench/README.md)
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
Each command's options: npm run bench -- <command> --help`,
  goals: `usage: npm run bench -- goals [options]   (bench/README.md, "Goals")
Re-checks every speed and memory goal the docs state; exit 1 when a held goal is missed by more than its spread.
  --rounds <n>       rounds, each through every section          (default 5)
  --duration <s>     seconds of load per measurement             (default 5)
  --warmup <s>       seconds of warm-up per server and workload  (default 3)
  --connections <n>  concurrent connections                      (default 20)
  --build <mode>     auto | always | never                       (default auto)
  --only <sections>  a subset of ${GOAL_SECTIONS.join(",")}
  --plant-ms <ms>    busy work on every request of each comparison's measured server (BENCH_PLANT_MS):
                     shows that the goals catch a slower app`,
  run: `usage: npm run bench -- [options]   (each option also reads an environment variable)
Re-checks decisions 0030 and 0031: the scaffold against bare Remix, and a request's cost against the route count.
  --duration <s>      seconds per measurement             BENCH_DURATION     (default 10)
  --rounds <n>        interleaved rounds                  BENCH_ROUNDS       (default 3)
  --warmup <s>        warm-up seconds per workload/target BENCH_WARMUP       (default 3)
  --connections <n>   concurrent connections              BENCH_CONNECTIONS  (default 20)
  --build <mode>      auto | always | never               BENCH_BUILD        (default auto)
  --targets <ids>     subset, e.g. A,C,E                  BENCH_TARGETS      (default A,B,C,D,E,F)
  --workloads <ids>   subset, e.g. doc-start,not-found    BENCH_WORKLOADS    (default all)
  --routes <counts>   generated routes per build          BENCH_ROUTES       (default 1,100,300)
smoke run: BENCH_DURATION=1 BENCH_ROUNDS=1 BENCH_WARMUP=0.5 BENCH_ROUTES=1 npm run bench`,
  profile: `usage: npm run bench -- profile [options]
Where one target's CPU goes: the cause of a goal that npm run bench -- goals misses.
  --target <A|…|F>     as in npm run bench (default A)
  --routes <n>         generated routes of the build (default 300)
  --workload <id>      one workload of npm run bench (default doc-item)
  --requests <n>       measured requests (default 3000)
  --warmup <n>         unmeasured requests first (default 1000)
  --connections <n>    concurrent connections (default 10)
  --top <n>            functions listed (default 20)
  --rate <r>           SENTRY_TRACES_SAMPLE_RATE of C or D (C: 1, D: the default), e.g. 0 for untraced only
  --save <file>        also keep the .cpuprofile there (open it in Chrome DevTools)
  --heap               instead: what is live once started (its first GET / answered), by package (node --heap-prof)`,
  soak:
    "usage: npm run bench -- soak [--routes 1] [--minutes 7] [--sample 30] [--rate 100 (per server; 0: saturated)] [--connections 10]\n" +
    "Re-checks the memory goals over minutes (the default ≤ 1.3× Sentry off), and the live heap by owner.",
  "client-js":
    "usage: npm run bench -- client-js   (BENCH_BUILD as in the run)\nRe-checks the client JavaScript goals over the bare app.",
  streaming: `usage: npm run bench -- streaming [--routes 1,300] [--rates 0.1,1] [--per-second 100000]
  [--workloads doc-start,data-item] [--duration 5] [--rounds 3] [--warmup 2] [--connections 20]
Targets: off; static and stream at each rate with SENTRY_TRACES_PER_SECOND=--per-second; both at the
app's defaults (rate and cap unset). Re-checks decisions 0057 and 0083.`,
  "sdk-parts": `usage: npm run bench -- sdk-parts [--rounds 6] [--sends 4000] [--duration 3]
  --sends: envelopes each transport sends a round; --duration: seconds of load each skip a round
Re-checks decision 0082.`,
  "trace-cost": `usage: npm run bench -- trace-cost [--duration 4] [--rounds 5] [--warmup 2] [--connections 10]
  [--caps 5,10] [--off]
Targets of the e2e build (npm run build:e2e first): U rate 0, T rate 1 and no cap, D the defaults;
D<K> the defaults at a cap of K traces a second; B (--off) Sentry off. Re-checks the default cap of
SENTRY_TRACES_PER_SECOND (decisions 0080, 0090).`,
  "channel-injection": `usage: npm run bench -- channel-injection [--rounds 8] [--start-rounds 5] [--duration 3] [--connections 10]
Injection on, on with Express loaded first, and off, on the e2e build (npm run build:e2e first).
Re-checks decision 0079.`,
  "compare-builds": `usage: npm run bench -- compare-builds --before <build dir> --after <build dir> [--after-root <dir>]
  [--routes 1] [--targets B,C,D] [--workloads doc-item,data-item] [--rate <r>] [--duration 5]
  [--rounds 5] [--warmup 2] [--connections 20] [--baseline]
Targets: B Sentry off, C 100 %, D the default rate or --rate. --after-root: the "after" builds'
tree; --baseline: this tree's bare app (A) in the same rounds. bench/README.md, "Before and after".
Re-checks a decision taken on a change's cost (0062, 0085) against the build before it.`,
  build: "usage: npm run bench -- build <bench|baseline|documented> [--routes <n>]",
} as const;

export type BenchCommand = Exclude<keyof typeof USAGES, "help">;
