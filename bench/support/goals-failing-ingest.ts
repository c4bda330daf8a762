/**
 * The failing-ingest goals (bench/README.md, "Goals"): Sentry's ingest refusing connections,
 * black-holed, slow (3 s), or answering 429 or 500 must not hurt the app. Each fault's app (the
 * e2e build at the defaults) beside a twin reporting to a healthy ingest, both having reported the
 * same errors first, each round in turn: CPU a page, its median latency, and its p99.
 */
import {
  blackHoleIngest,
  refusingIngest,
  slowIngest,
  type FaultyIngest,
} from "../../test-support/faulty-ingest";
import { startRecorder } from "../../test-support/sentry-recorder";
import { BUILDS } from "./builds";
import {
  e2ePath,
  expected,
  warmedUp,
  inTurn,
  PerRound,
  type GoalContext,
  type GoalSection,
} from "./goal-run";
import type { GoalRow } from "./goal-verdict";
import { measure } from "./measure";
import { startAppServer, type BenchServer } from "./servers";

const PAGE = e2ePath("page", "/fixtures/items/1", 200);
export const ERROR_PAGE = e2ePath("error", "/fixtures/loader-error", 500);
/** Past the server's 5 s send time-out, counted from the first error: a lasting outage. */
const OUTAGE_MS = 6_000;

/** An ingest answering every envelope with `status`. */
async function answering(status: number): Promise<Pick<FaultyIngest, "dsn" | "close">> {
  const recorder = await startRecorder();
  recorder.respondNext(1_000_000, status);
  return { dsn: recorder.dsn(), close: () => recorder.close() };
}

const FAULTS: [string, () => Promise<Pick<FaultyIngest, "dsn" | "close">>][] = [
  ["refusing connections", refusingIngest],
  ["black-holed", blackHoleIngest],
  ["slow (3 s)", () => slowIngest(3_000)],
  ["answering 429", () => answering(429)],
  ["answering 500", () => answering(500)],
];

interface Twins {
  fault: string;
  ingest: Pick<FaultyIngest, "close">;
  faulty: BenchServer;
  healthy: BenchServer;
}

export function failingIngestGoals(context: GoalContext): GoalSection {
  const pairs: Twins[] = [];
  const figures = new PerRound();
  const page = (server: BenchServer, seconds: number) =>
    measure(server, PAGE, 1, seconds, context.connections);
  return {
    builds: [BUILDS.e2e],
    async start() {
      const preload = context.plant ? [`"${context.plant}"`] : [];
      for (const [fault, make] of FAULTS) {
        const ingest = await make();
        // The faulty side is the measured one: the planted busy work, if any, goes there.
        const faulty = await startAppServer(`ingest ${fault}`, { env: { SENTRY_DSN: ingest.dsn }, preload });
        const healthy = await startAppServer("healthy", { env: { SENTRY_DSN: context.recorder.dsn("3") } });
        pairs.push({ fault, ingest, faulty, healthy });
      }
      const outageSince = Date.now();
      // The same errors reported by both twins, then pages, in alternating batches: neither has
      // sat idle longer when the rounds start (a fresh server's first load runs slower).
      for (let batch = 1; batch <= 4; batch++)
        for (const { faulty, healthy } of pairs)
          for (const server of inTurn([faulty, healthy], batch))
            expected(await measure(server, ERROR_PAGE, 1, 0, 10, { amount: 50 }), "errors");
      for (const { faulty, healthy } of pairs)
        for (const server of [faulty, healthy]) warmedUp(await page(server, context.warmup), "warm-up");
      await new Promise((resolve) => setTimeout(resolve, outageSince + OUTAGE_MS - Date.now()));
    },
    async round(round) {
      for (const { fault, faulty, healthy } of pairs)
        for (const [side, server] of inTurn(
          [
            ["faulty", faulty],
            ["healthy", healthy],
          ] as const,
          round,
        )) {
          const m = expected(await page(server, context.duration), `ingest ${fault}, ${side}`);
          figures.add(`${fault} ${side} cpu`, m.cpuMsPerRequest);
          figures.add(`${fault} ${side} p50`, m.p50Ms);
          // The healthy twin's p99, ×3 and +50 ms, is the faulty one's bound.
          figures.add(`${fault} ${side} p99`, side === "healthy" ? 3 * m.p99Ms + 50 : m.p99Ms);
          context.log(`round ${round} ingest ${fault} ${side}: ${m.cpuMsPerRequest.toFixed(3)} CPU ms/req`);
        }
    },
    rows: () =>
      FAULTS.flatMap(([fault]): GoalRow[] => {
        const of = (what: string) => figures.ratio(`${fault} faulty ${what}`, `${fault} healthy ${what}`);
        const goal = (text: string, bound: number, values: number[]): GoalRow => ({
          goal: `ingest ${fault}: ${text}`,
          kind: "max",
          bound,
          values,
        });
        return [
          goal("CPU/page ÷ a healthy ingest's twin", 1.5, of("cpu")),
          goal("p50 ÷ the twin's", 2, of("p50")),
          goal("p99 ÷ (3 × the twin's + 50 ms)", 1, of("p99")),
        ];
      }),
    async stop() {
      await Promise.all(pairs.flatMap(({ faulty, healthy }) => [faulty.stop(), healthy.stop()]));
      await Promise.all(pairs.map(({ ingest }) => ingest.close()));
    },
  };
}
