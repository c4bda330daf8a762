/**
 * The rolling-restart figures: per phase (steady state before, during the
 * restarts, after), how many requests and POSTs, how many failed, and p50/p99
 * latency, as a table for the test's output and as data for its attachment.
 */
import { percentile } from "../../../test-support/load";
import type { Sample } from "./mixed-load";

export type Phase = "steady" | "restarting" | "after";

export interface Restart {
  name: string;
  /** From SIGTERM until nginx ran without it. */
  outOfRotationMs: number;
  /** From SIGTERM until its successor was back in nginx's rotation. */
  backInRotationMs: number;
}

export function summarize(phases: Record<Phase, Sample[]>, restarts: Restart[]) {
  const data = {
    phases: Object.fromEntries(
      Object.entries(phases).map(([phase, samples]) => {
        const latencies = samples.map((sample) => sample.ms);
        return [
          phase,
          {
            requests: samples.length,
            posts: samples.filter((sample) => sample.kind.endsWith("-post")).length,
            failed: samples.filter((sample) => sample.failure).length,
            p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
            p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
          },
        ];
      }),
    ),
    restarts: restarts.map((restart) => ({
      ...restart,
      outOfRotationMs: Math.round(restart.outOfRotationMs),
      backInRotationMs: Math.round(restart.backInRotationMs),
    })),
  };
  const rows = Object.entries(data.phases).map(
    ([phase, row]) =>
      `${phase.padEnd(11)} ${String(row.requests).padStart(8)} ${String(row.posts).padStart(6)} ` +
      `${String(row.failed).padStart(6)} ${String(row.p50Ms).padStart(8)} ${String(row.p99Ms).padStart(8)}`,
  );
  const text = [
    "phase       requests  posts failed   p50 ms   p99 ms",
    ...rows,
    ...data.restarts.map(
      (r) =>
        `${r.name}: out of rotation ${r.outOfRotationMs} ms after SIGTERM, successor in after ${r.backInRotationMs} ms`,
    ),
  ].join("\n");
  return { data, text };
}
