/**
 * The goals of what Sentry and the scaffold cost, measured (bench/README.md, "Goals"): the targets
 * of `npm run bench` (bare, Sentry off, 100 %, the default, the documented setup, rate 0) at 1 and 300
 * routes, a document and a single fetch, each round every target in turn, and their peak memory;
 * the goals themselves: bench/support/sentry-cost-goals.ts.
 */
import { routeCountBuilds } from "./builds";
import {
  expected,
  inTurn,
  PerRound,
  plantOptions,
  warmedUp,
  type GoalContext,
  type GoalSection,
} from "./goal-run";
import { measure } from "./measure";
import type { TargetId } from "./report";
import { memoryMb, type BenchServer } from "./servers";
import {
  COST_ROUTES as ROUTES,
  COST_WORKLOAD_NAMES,
  costGoalRows,
  costKey as key,
} from "./sentry-cost-goals";
import { AVAILABLE_TARGETS, startTarget } from "./targets";
import { WORKLOADS } from "./workloads";

const COST_WORKLOADS = WORKLOADS.filter((w) => w.id in COST_WORKLOAD_NAMES);

export function sentryCostGoals(context: GoalContext): GoalSection {
  const servers: { id: TargetId; routes: number; server: BenchServer }[] = [];
  const figures = new PerRound();
  return {
    builds: ROUTES.flatMap((routes) => {
      const builds = routeCountBuilds(routes);
      return [builds.app, builds.baseline, ...(AVAILABLE_TARGETS.includes("E") ? [builds.documented] : [])];
    }),
    async start() {
      for (const routes of ROUTES)
        for (const id of AVAILABLE_TARGETS) {
          // The default (D) and rate 0 (F) are the measured ones: the planted busy work, if any, goes there.
          const nodeOptions = id === "D" || id === "F" ? plantOptions(context) : undefined;
          const server = await startTarget(id, { routes, recorder: context.recorder, nodeOptions });
          servers.push({ id, routes, server });
          for (const workload of COST_WORKLOADS)
            warmedUp(await measure(server, workload, routes, context.warmup), `warm-up ${id} ${routes}`);
        }
    },
    async round(round) {
      for (const routes of ROUTES)
        for (const workload of COST_WORKLOADS)
          for (const { id, server } of inTurn(
            servers.filter((entry) => entry.routes === routes),
            round,
          )) {
            context.recorder.clear();
            const what = `${id} ${routes} routes ${workload.id}`;
            const m = expected(
              await measure(server, workload, routes, context.duration, context.connections),
              what,
            );
            figures.add(key(routes, workload.id, id, "rps"), m.rps);
            figures.add(key(routes, workload.id, id, "cpu"), m.cpuMsPerRequest);
            figures.add(key(routes, workload.id, id, "p99"), m.p99Ms);
            context.log(`round ${round} ${what}: ${m.cpuMsPerRequest.toFixed(3)} CPU ms/req`);
          }
      // VmHWM, in MiB (memoryMb divides kB by 1024).
      for (const { id, routes, server } of servers)
        figures.add(key(routes, "", id, "peak"), memoryMb(server.pid).peakRss);
    },
    rows: () => costGoalRows(figures, AVAILABLE_TARGETS),
    async stop() {
      await Promise.all(servers.map(({ server }) => server.stop()));
    },
  };
}
