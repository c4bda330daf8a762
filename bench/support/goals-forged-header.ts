/**
 * The forged-header goal (bench/README.md, "Goals"; decision 0090): a client that sends a sampled
 * `sentry-trace` and `baggage` on every request, winning every draw it can, costs the server what
 * the same load without them costs. Two twins of the e2e build at the defaults, each round in turn.
 */
import { randomBytes } from "node:crypto";
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
import { measure } from "./measure";
import { startAppServer, type BenchServer } from "./servers";

const DATA = e2ePath("data", "/fixtures/items/1.data", 200);
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A new forged trace on each request: sampled, at rate 1, with the lowest draw. */
function forged<T extends { headers?: Record<string, string> }>(request: T): T {
  const traceId = hex(16);
  request.headers = {
    ...request.headers,
    "sentry-trace": `${traceId}-${hex(8)}-1`,
    baggage: `sentry-trace_id=${traceId},sentry-sample_rate=1,sentry-sample_rand=0.000001,sentry-sampled=true`,
  };
  return request;
}

export function forgedHeaderGoals(context: GoalContext): GoalSection {
  const servers: { name: string; server: BenchServer }[] = [];
  const figures = new PerRound();
  const run = (name: string, server: BenchServer, seconds: number) =>
    measure(server, DATA, 1, seconds, context.connections, name === "forged" ? { setupRequest: forged } : {});
  return {
    builds: [BUILDS.e2e],
    async start() {
      const env = { SENTRY_DSN: context.recorder.dsn() };
      const preload = context.plant ? [`"${context.plant}"`] : [];
      servers.push({ name: "plain", server: await startAppServer("plain", { env }) });
      // The forged side is the measured one: the planted busy work, if any, goes there.
      servers.push({ name: "forged", server: await startAppServer("forged", { env, preload }) });
      for (const { name, server } of servers)
        warmedUp(await run(name, server, context.warmup), `warm-up ${name}`);
    },
    async round(round) {
      for (const { name, server } of inTurn(servers, round)) {
        const m = expected(await run(name, server, context.duration), `forged header, ${name}`);
        figures.add(name, m.cpuMsPerRequest);
        context.log(`round ${round} forged header ${name}: ${m.cpuMsPerRequest.toFixed(3)} CPU ms/req`);
      }
    },
    rows: () => [
      {
        goal: "single fetch, a forged sampled header on each: CPU/req ÷ the same without",
        kind: "max",
        // Throughput at least 0.85× of the same load without the header.
        bound: Number((1 / 0.85).toFixed(2)),
        values: figures.ratio("forged", "plain"),
      },
    ],
    async stop() {
      await Promise.all(servers.map(({ server }) => server.stop()));
    },
  };
}
