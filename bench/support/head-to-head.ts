/**
 * The head-to-head against the documented setup: the app at 100 % tracing (C) against the same
 * bare Remix app with `@sentry/remix` set up as Sentry documents it (E), and
 * both against bare Remix (A). Pure functions of the summaries.
 */
import type { Plan, Summary, TargetId } from "./report";
import { times } from "./report";
import { fixed, ratio } from "./stats";

/** C must do at least this much better than E: req/s C ÷ E, and CPU per request E ÷ C. */
export const DOCUMENTED_SETUP_GOAL = 1.4;

export interface HeadToHead {
  routes: number;
  workload: string;
  /** Medians of C and E. */
  reqPerSec: { C: number; E: number };
  cpuMsPerRequest: { C: number; E: number };
  /** E ÷ A (req/s), C ÷ A (req/s). */
  vsBaseline: { C: number; E: number };
  /** req/s of C ÷ E (≥ 1.4 is the goal). */
  throughputCOverE: number;
  /** CPU ms per request of E ÷ C (≥ 1.4 is the goal, steadier than req/s). */
  cpuEOverC: number;
  /** What Sentry adds in each setup, CPU ms per request: C − B (the app) and E − A (as documented). */
  sentryCpu: { app: number; documented: number };
}

export function headToHead(summaries: Summary[], plan: Plan): HeadToHead[] {
  const has = (id: TargetId) => plan.targets.some((target) => target.id === id);
  if (!has("C") || !has("E")) return [];
  const find = (routes: number, workload: string, target: TargetId) =>
    summaries.find((s) => s.routes === routes && s.workload === workload && s.target === target);
  const cpu = (routes: number, workload: string, target: TargetId) =>
    find(routes, workload, target)?.cpuMsPerRequest.median ?? NaN;
  const rows: HeadToHead[] = [];
  for (const routes of plan.routes) {
    for (const workload of plan.workloads) {
      const c = find(routes, workload, "C");
      const e = find(routes, workload, "E");
      if (!c || !e) continue;
      rows.push({
        routes,
        workload,
        reqPerSec: { C: c.reqPerSec.median, E: e.reqPerSec.median },
        cpuMsPerRequest: { C: c.cpuMsPerRequest.median, E: e.cpuMsPerRequest.median },
        vsBaseline: { C: c.vsBaseline.reqPerSec, E: e.vsBaseline.reqPerSec },
        throughputCOverE: ratio(c.reqPerSec.median, e.reqPerSec.median),
        cpuEOverC: ratio(e.cpuMsPerRequest.median, c.cpuMsPerRequest.median),
        sentryCpu: {
          app: c.cpuMsPerRequest.median - cpu(routes, workload, "B"),
          documented: e.cpuMsPerRequest.median - cpu(routes, workload, "A"),
        },
      });
    }
  }
  return rows;
}

/** Markdown: one row per route count and workload. Empty when C or E did not run. */
export function headToHeadTable(rows: HeadToHead[]): string {
  if (rows.length === 0) return "";
  return [
    "| routes | workload | req/s C | req/s E | C ÷ A | E ÷ A | **C ÷ E** | CPU ms/req C | CPU ms/req E | **E ÷ C (CPU)** | Sentry's CPU: C − B | E − A |",
    "| --: | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
    ...rows.map(
      (r) =>
        `| ${r.routes} | ${r.workload} | ${fixed(r.reqPerSec.C, 0)} | ${fixed(r.reqPerSec.E, 0)} | ` +
        `${times(r.vsBaseline.C)} | ${times(r.vsBaseline.E)} | ${times(r.throughputCOverE)} | ` +
        `${fixed(r.cpuMsPerRequest.C, 3)} | ${fixed(r.cpuMsPerRequest.E, 3)} | ${times(r.cpuEOverC)} | ` +
        `${fixed(r.sentryCpu.app, 3)} | ${fixed(r.sentryCpu.documented, 3)} |`,
    ),
  ].join("\n");
}
