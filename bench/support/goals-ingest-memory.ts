/**
 * The memory goal of a failing ingest (bench/README.md, "Goals"): while every request reports an
 * error to a black-holed ingest (100 % tracing), the resident set grows no more than the same app's
 * with Sentry off, over the same batch of failing requests, each round in turn.
 */
import { blackHoleIngest, type FaultyIngest } from "../../test-support/faulty-ingest";
import { BUILDS } from "./builds";
import { ERROR_PAGE } from "./goals-failing-ingest";
import { expected, inTurn, PerRound, type GoalContext, type GoalSection } from "./goal-run";
import { measure } from "./measure";
import { memoryMb, startAppServer, type BenchServer } from "./servers";

/** V8 grows its heap over the first thousands of requests (Sentry off too), then levels off. */
const WARM_ERRORS = 2_000;
/** Far past the SDK's send buffer (64 pending sends), which fills within the first seconds. */
const BATCH_ERRORS = 4_000;

export function ingestMemoryGoals(context: GoalContext): GoalSection {
  let ingest: FaultyIngest | undefined;
  const servers: { name: string; server: BenchServer }[] = [];
  const figures = new PerRound();
  const rss = new Map<string, number>();
  const errors = async (name: string, server: BenchServer, amount: number) => {
    expected(await measure(server, ERROR_PAGE, 1, 0, 20, { amount }), `failing requests, ${name}`);
    return memoryMb(server.pid).rss;
  };
  return {
    builds: [BUILDS.e2e],
    async start() {
      ingest = await blackHoleIngest();
      const env = { SENTRY_DSN: ingest.dsn, SENTRY_TRACES_SAMPLE_RATE: "1" };
      const preload = context.plant ? [`"${context.plant}"`] : [];
      servers.push({ name: "on", server: await startAppServer("black-holed", { env, preload }) });
      servers.push({ name: "off", server: await startAppServer("off", {}) });
      for (const { name, server } of servers) rss.set(name, await errors(name, server, WARM_ERRORS));
    },
    async round(round) {
      for (const { name, server } of inTurn(servers, round)) {
        const after = await errors(name, server, BATCH_ERRORS);
        figures.add(`${name} growth`, after - rss.get(name)!);
        figures.add(`${name} rss`, after);
        rss.set(name, after);
        context.log(`round ${round} ingest memory ${name}: RSS ${after.toFixed(0)} MiB`);
      }
    },
    rows: () => {
      const on = figures.of("on growth");
      const off = figures.of("off growth");
      return [
        {
          goal: `black-holed ingest, ${BATCH_ERRORS} failing requests: RSS growth − Sentry off's`,
          kind: "max",
          // Every event and transaction of the batch kept would be far more.
          bound: 100,
          values: on.map((growth, round) => growth - (off[round] ?? NaN)),
          digits: 0,
          unit: "MiB",
        },
        {
          goal: "black-holed ingest: RSS ÷ Sentry off's",
          kind: "max",
          bound: 1.5,
          values: figures.ratio("on rss", "off rss"),
        },
      ];
    },
    async stop() {
      await Promise.all(servers.map(({ server }) => server.stop()));
      await ingest?.close();
    },
  };
}
