/** One measurement of one server under one workload, for the commands that compare a few servers (streaming, goals). */
import autocannon from "autocannon";
import { cpuTimeMs, type BenchServer } from "./servers";
import type { Workload } from "./workloads";

export interface Measurement {
  target?: string;
  round?: number;
  workload: string;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  /** Responses whose status was not the workload's, plus errors. */
  unexpected: number;
}

export interface MeasureOptions {
  /** Exactly this many requests instead of `seconds` of load. */
  amount?: number;
  /** Rewrites each request before it is sent (autocannon's `setupRequest`), e.g. its headers. */
  setupRequest?: autocannon.SetupRequest;
}

export async function measure(
  server: BenchServer,
  workload: Workload,
  routes: number,
  seconds: number,
  connections = 20,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const cpuBefore = cpuTimeMs(server.pid);
  const request = { method: workload.method, headers: workload.headers, body: workload.body };
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: server.url + workload.path(routes),
        ...request,
        ...(options.setupRequest
          ? { requests: [{ ...request, path: workload.path(routes), setupRequest: options.setupRequest }] }
          : {}),
        connections,
        ...(options.amount ? { amount: options.amount } : { duration: seconds }),
        timeout: 10,
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    ),
  );
  const requests = result.requests.total;
  const expected = result.statusCodeStats[String(workload.status)]?.count ?? 0;
  return {
    workload: workload.id,
    requests,
    rps: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: (cpuTimeMs(server.pid) - cpuBefore) / Math.max(requests, 1),
    unexpected: requests - expected + result.errors,
  };
}
