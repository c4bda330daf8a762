/** The soak's markdown: resident memory over time per target, statuses, and the live heap by owner. */
import type { summarizeHeapProfile } from "./heap-profile";
import type { TargetId } from "./report";
import { fixed } from "./stats";

export interface SoakSample {
  seconds: number;
  /** One-minute load average of the machine. */
  load: number;
  /** VmRSS per target, MB. */
  rss: Record<string, number>;
  /** Responses per target so far. */
  served: Record<string, number>;
}

const NAMES: Record<string, string> = {
  A: "A bare",
  B: "B off",
  D: "D default",
  C: "C 100 %",
};

export function soakReport(input: {
  targets: TargetId[];
  samples: SoakSample[];
  statuses: Map<TargetId, Map<number, number>>;
  heap: Map<TargetId, ReturnType<typeof summarizeHeapProfile>>;
  options: Record<string, unknown>;
  routes: number;
}): string {
  const { targets, samples, statuses, heap, options, routes } = input;
  const names = targets.map((id) => NAMES[id] ?? id);
  const lines = [
    `## Memory soak: ${options.minutes} min, ${Number(options.rate) ? `${options.rate} req/s each` : "saturated"}, ${options.connections} connections, ` +
      `${routes} route(s), all four at once, Node ${process.version}`,
    "",
    `| s | load | ${names.map((name) => `${name} RSS MB`).join(" | ")} | ${targets.map((id) => `${id} served`).join(" | ")} |`,
    `| --: | --: | ${targets.map(() => "--:").join(" | ")} | ${targets.map(() => "--:").join(" | ")} |`,
  ];
  for (const sample of samples)
    lines.push(
      `| ${sample.seconds} | ${fixed(sample.load, 2)} | ${targets.map((id) => fixed(sample.rss[id]!, 0)).join(" | ")} | ` +
        `${targets.map((id) => sample.served[id]).join(" | ")} |`,
    );
  const last = samples.at(-1)!;
  const off = last.rss.B!;
  lines.push(
    "",
    `Last sample ÷ B off: ${targets.map((id) => `${id} ${fixed(last.rss[id]! / off, 2)}`).join(", ")}.`,
    `Statuses: ${targets.map((id) => `${id} ${[...statuses.get(id)!].map(([code, n]) => `${code}×${n}`).join(" ")}`).join("; ")}.`,
    "",
    "Live heap at exit (sampling heap profile, MB, estimated), by owner:",
    "",
  );
  const owners = [...new Set([...heap.values()].flatMap((summary) => [...summary.byOwner.keys()]))].sort();
  const withHeap = targets.filter((id) => heap.has(id));
  lines.push(
    `| owner | ${withHeap.map((id) => NAMES[id]).join(" | ")} |`,
    `| --- | ${withHeap.map(() => "--:").join(" | ")} |`,
  );
  for (const owner of [...owners, "total"])
    lines.push(
      `| ${owner} | ${withHeap
        .map((id) => {
          const summary = heap.get(id)!;
          return fixed(owner === "total" ? summary.totalMb : (summary.byOwner.get(owner) ?? 0), 1);
        })
        .join(" | ")} |`,
    );
  for (const id of withHeap.filter((id) => id === "C" || id === "D")) {
    const top = [...heap.get(id)!.byModule].sort((a, b) => b[1] - a[1]).slice(0, 8);
    lines.push(
      "",
      `Top modules of ${NAMES[id]}: ${top.map(([module, mb]) => `${module} ${fixed(mb, 1)}`).join(", ")}.`,
    );
  }
  return lines.join("\n");
}
