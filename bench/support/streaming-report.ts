/** The table of `npm run bench -- streaming`: each target against Sentry off, and what it sent. */
import type { RecordedEnvelope } from "../../test-support/sentry-recorder";
import type { Measurement } from "./measure";
import { fixed, formatSpread, ratio, spread } from "./stats";
import type { Workload } from "./workloads";

/** What one target's server sent to the recorder during the measured rounds. */
export interface Sent {
  envelopes: number;
  transactions: number;
  spanItems: number;
  /** Spans in transactions (each counts itself and its children) and in span items. */
  spans: number;
  /** Envelope bodies as received (uncompressed), KB. */
  kb: number;
}

/** Adds an envelope to its project's counts. */
export function countSent(sent: Map<string, Sent>, envelope: RecordedEnvelope): void {
  const counts = sent.get(envelope.project) ?? {
    envelopes: 0,
    transactions: 0,
    spanItems: 0,
    spans: 0,
    kb: 0,
  };
  counts.envelopes++;
  counts.kb += envelope.rawBody.length / 1024;
  for (const item of envelope.items) {
    if (item.type === "transaction") {
      counts.transactions++;
      counts.spans += 1 + ((item.payload?.spans as unknown[]) ?? []).length;
    } else if (item.type === "span") {
      counts.spanItems++;
      counts.spans += ((item.payload?.items as unknown[]) ?? []).length;
    }
  }
  sent.set(envelope.project, counts);
}

export function streamingTable(input: {
  routes: number;
  workloads: Workload[];
  targets: string[];
  results: Measurement[];
  projects: Map<string, Sent | undefined>;
}): string {
  const { routes, workloads, targets, results, projects } = input;
  const lines = [
    `### ${routes} route(s)`,
    "",
    "| workload | target | req/s | × off | p99 ms | × off | CPU ms/req | × off | sent per 100 req: envelopes / transactions / span items / spans / KB |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --- |",
  ];
  const served = new Map<string, number>();
  for (const result of results)
    served.set(result.target!, (served.get(result.target!) ?? 0) + result.requests);
  for (const workload of workloads) {
    const of = (target: string) => results.filter((r) => r.workload === workload.id && r.target === target);
    const [offRps, offP99, offCpu] = (["rps", "p99Ms", "cpuMsPerRequest"] as const).map(
      (key) => spread(of("off").map((r) => r[key])).median,
    );
    for (const target of targets) {
      const rps = spread(of(target).map((r) => r.rps));
      const p99 = spread(of(target).map((r) => r.p99Ms));
      const cpu = spread(of(target).map((r) => r.cpuMsPerRequest));
      const sent = projects.get(target);
      const per100 = (n: number) => fixed((100 * n) / (served.get(target) ?? 1), 1);
      const sentCell = sent
        ? [sent.envelopes, sent.transactions, sent.spanItems, sent.spans, sent.kb].map(per100).join(" / ")
        : "—";
      const bad = of(target).reduce((sum, r) => sum + r.unexpected, 0);
      lines.push(
        `| ${workload.id} | ${target} | ${formatSpread(rps, 0)} | ${fixed(ratio(rps.median, offRps!), 2)} | ` +
          `${formatSpread(p99, 0)} | ${fixed(ratio(p99.median, offP99!), 2)} | ${formatSpread(cpu, 2)} | ` +
          `${fixed(ratio(cpu.median, offCpu!), 2)} | ${sentCell}${bad ? ` (${bad} unexpected)` : ""} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
