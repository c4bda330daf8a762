import { describe, expect, it } from "vitest";
import { goals } from "./goals";
import { summarize, type Plan, type Sample } from "./report";

const plan: Plan = { routes: [1], workloads: ["doc-item", "not-found"], targets: [{ id: "D", name: "D" }] };

function sample(workload: string, requests: number, sentryEnvelopes: number, seconds = 1): Sample {
  return {
    round: 1,
    routes: 1,
    workload,
    target: "D",
    requests,
    seconds,
    reqPerSec: requests / seconds,
    p50Ms: 1,
    p99Ms: 2,
    cpuMsPerRequest: 1,
    peakRssMb: 100,
    rssMb: 100,
    servedSoFar: requests,
    statusCodes: {},
    errors: 0,
    timeouts: 0,
    unexpected: 0,
    sentryEnvelopes,
  };
}

const shareGoal = (samples: Sample[], perSecond?: number) =>
  goals(summarize(samples, plan), samples, plan, 0.1, perSecond).find((goal) =>
    goal.goal.startsWith("transactions"),
  );

describe("the default rate's sanity check", () => {
  it("counts transactions per request a route served (the catch-all's are never traced)", () => {
    const goal = shareGoal([sample("doc-item", 1000, 95), sample("not-found", 1000, 0)]);
    expect(goal).toMatchObject({ target: "D", met: true, measured: "95 of 100 expected = 0.95×" });
  });

  it("expects at most the per-second cap of traces at saturation", () => {
    // 5 000 requests in 5 s at 0.1 would be 500 traces; the cap of 20 a second allows 100.
    expect(shareGoal([sample("doc-item", 5000, 95, 5)], 20)?.met).toBe(true);
    expect(shareGoal([sample("doc-item", 5000, 95, 5)])?.met).toBe(false);
  });

  it("fails a server that traces a tenth of its rate (two independent decisions at 0.1)", () => {
    expect(shareGoal([sample("doc-item", 1000, 10), sample("not-found", 1000, 0)])?.met).toBe(false);
  });
});
