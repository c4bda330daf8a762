import { describe, expect, it } from "vitest";
import { headToHead } from "./head-to-head";
import { summarize, type Plan, type Sample, type TargetId } from "./report";

const plan: Plan = {
  routes: [1],
  workloads: ["doc-item"],
  targets: (["A", "C", "E"] as const).map((id) => ({ id, name: id })),
};

function sample(target: TargetId, reqPerSec: number, cpuMsPerRequest: number): Sample {
  return {
    round: 1,
    routes: 1,
    workload: "doc-item",
    target,
    requests: reqPerSec,
    seconds: 1,
    reqPerSec,
    p50Ms: 1,
    p99Ms: 2,
    cpuMsPerRequest,
    peakRssMb: 100,
    rssMb: 100,
    servedSoFar: reqPerSec,
    statusCodes: {},
    errors: 0,
    timeouts: 0,
    unexpected: 0,
    sentryEnvelopes: 0,
  };
}

describe("the app at 100 % against the documented setup", () => {
  const samples = [sample("A", 1000, 1), sample("C", 700, 1.5), sample("E", 400, 2.4)];

  it("gives C ÷ E on req/s and E ÷ C on CPU, and both against A", () => {
    const [row] = headToHead(summarize(samples, plan), plan);
    expect(row).toMatchObject({ routes: 1, workload: "doc-item", vsBaseline: { C: 0.7, E: 0.4 } });
    expect(row!.throughputCOverE).toBeCloseTo(1.75);
    expect(row!.cpuEOverC).toBeCloseTo(1.6);
    // No B in this run: the app's share is unknown, the documented setup's is E − A.
    expect(row!.sentryCpu.app).toBeNaN();
    expect(row!.sentryCpu.documented).toBeCloseTo(1.4);
  });
});
