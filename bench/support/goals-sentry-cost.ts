/**
 * The goals of what Sentry and the scaffold cost (bench/README.md, "Goals"): the targets of
 * `npm run bench` (bare, Sentry off, 100 %, the default, the documented setup) at 1 and 300 routes,
 * a document and a single fetch, each round every target in turn; and the memory they hold under it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
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
import type { GoalRow } from "./goal-verdict";
import { DOCUMENTED_SETUP_GOAL } from "./head-to-head";
import { measure } from "./measure";
import type { TargetId } from "./report";
import { memoryMb, ROOT, type BenchServer } from "./servers";
import { AVAILABLE_TARGETS, startTarget } from "./targets";
import { WORKLOADS } from "./workloads";

const ROUTES = [1, 300];
const COST_WORKLOADS = WORKLOADS.filter((w) => w.id === "doc-item" || w.id === "data-item");
const NAMES: Record<string, string> = { "doc-item": "document", "data-item": "single fetch" };

/** The pod's memory request (deploy/kubernetes/deployment.yaml), in MiB: the default's peak must fit. */
function podMemoryRequestMib(): number {
  const yaml = readFileSync(path.join(ROOT, "deploy/kubernetes/deployment.yaml"), "utf8");
  return Number(/requests:[^]*?memory:\s*"?(\d+)Mi/.exec(yaml)?.[1] ?? NaN);
}

/**
 * Which of them the docs record as not met yet (aims): the default against Sentry off at 1 route
 * (bench/README.md, "What the cap carries of the default's cost"), 100 % against bare and against the
 * documented setup at 1 route ("The goals before and after, both trees"), the route-count stretch.
 */
const AIM_AT_ONE_ROUTE = new Set(["off-default", "full-bare", "full-documented"]);

export function sentryCostGoals(context: GoalContext): GoalSection {
  const servers: { id: TargetId; routes: number; server: BenchServer }[] = [];
  const figures = new PerRound();
  const key = (routes: number, workload: string, id: TargetId, what: string) =>
    `${routes} ${workload} ${id} ${what}`;
  return {
    builds: ROUTES.flatMap((routes) => {
      const builds = routeCountBuilds(routes);
      return [builds.app, builds.baseline, ...(AVAILABLE_TARGETS.includes("E") ? [builds.documented] : [])];
    }),
    async start() {
      for (const routes of ROUTES)
        for (const id of AVAILABLE_TARGETS) {
          // The default (D) is the measured one: the planted busy work, if any, goes there.
          const nodeOptions = id === "D" ? plantOptions(context) : undefined;
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
            const m = expected(
              await measure(server, workload, routes, context.duration, context.connections),
              `${id} ${routes} routes ${workload.id}`,
            );
            figures.add(key(routes, workload.id, id, "rps"), m.rps);
            figures.add(key(routes, workload.id, id, "cpu"), m.cpuMsPerRequest);
            figures.add(key(routes, workload.id, id, "p99"), m.p99Ms);
            context.log(
              `round ${round} ${routes} routes ${workload.id} ${id}: ${m.cpuMsPerRequest.toFixed(3)} CPU ms/req`,
            );
          }
      // VmHWM, in MiB (memoryMb divides kB by 1024).
      for (const { id, routes, server } of servers)
        figures.add(key(routes, "", id, "peak"), memoryMb(server.pid).peakRss);
    },
    rows() {
      const rows: GoalRow[] = [];
      const has = (id: TargetId) => AVAILABLE_TARGETS.includes(id);
      for (const routes of ROUTES) {
        const at = `${routes} route${routes === 1 ? "" : "s"}`;
        for (const { id: w } of COST_WORKLOADS) {
          const of = (a: TargetId, b: TargetId, what: string) =>
            figures.ratio(key(routes, w, a, what), key(routes, w, b, what));
          const goal = (name: string, text: string, kind: "min" | "max", bound: number, values: number[]) =>
            rows.push({
              goal: `${at}, ${NAMES[w]}: ${text}`,
              kind,
              bound,
              values,
              aim: routes === 1 && AIM_AT_ONE_ROUTE.has(name),
            });
          goal("off-bare", "req/s Sentry off ÷ bare", "min", 0.95, of("B", "A", "rps"));
          goal("off-default", "CPU/req Sentry off ÷ default", "min", 0.9, of("B", "D", "cpu"));
          goal("p99-default", "p99 default ÷ Sentry off", "max", 1.3, of("D", "B", "p99"));
          goal("full-bare", "req/s 100 % ÷ bare", "min", 0.7, of("C", "A", "rps"));
          if (has("E"))
            goal(
              "full-documented",
              "req/s 100 % ÷ documented",
              "min",
              DOCUMENTED_SETUP_GOAL,
              of("C", "E", "rps"),
            );
          if (routes === ROUTES[1]) {
            goal("route-cost", "CPU/req bare ÷ Sentry off", "min", 2, of("A", "B", "cpu"));
            rows.push({
              goal: `${at} against 1, ${NAMES[w]}: CPU/req Sentry off (stretch)`,
              kind: "max",
              bound: 1.5,
              values: figures.ratio(key(routes, w, "B", "cpu"), key(ROUTES[0]!, w, "B", "cpu")),
              aim: true,
            });
          }
        }
        const peak = (id: TargetId) => figures.of(key(routes, "", id, "peak"));
        rows.push({
          goal: `${at}: peak RSS under load, default ÷ Sentry off`,
          kind: "max",
          bound: 1.3,
          values: figures.ratio(key(routes, "", "D", "peak"), key(routes, "", "B", "peak")),
        });
        rows.push({
          goal: `${at}: peak RSS under load, default, against the pod's memory request`,
          kind: "max",
          bound: podMemoryRequestMib(),
          values: peak("D"),
          digits: 0,
          unit: "MiB",
        });
      }
      return rows;
    },
    async stop() {
      await Promise.all(servers.map(({ server }) => server.stop()));
    },
  };
}
