/**
 * The part of autocannon's programmatic API the benchmark uses (the package
 * ships no types). https://github.com/mcollina/autocannon#api
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    interface Options {
      url: string;
      method?: "GET" | "POST" | "HEAD" | "PUT" | "DELETE" | "PATCH";
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Exactly this many requests instead of a duration. */
      amount?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      /** Requests sent in turn on each connection instead of one (paths relative to `url`). */
      requests?: {
        method?: Options["method"];
        path: string;
        headers?: Record<string, string>;
        body?: string;
        setupRequest?: SetupRequest;
      }[];
      /** At most this many requests a second over all connections. */
      overallRate?: number;
    }

    /** Rewrites a request before it is sent; returns the request to send. */
    type SetupRequest = (request: {
      method?: string;
      path: string;
      headers?: Record<string, string>;
      body?: string;
    }) => { method?: string; path: string; headers?: Record<string, string>; body?: string };

    /** Percentiles as autocannon names them (p50, p97_5, p99…), plus the usual figures. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      [percentile: string]: number;
    }

    interface Result {
      /** Seconds actually measured. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds. */
      latency: Histogram;
      /** Per-second samples; `total` counts every completed request. */
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      /** Each response as it completes: its status code among the arguments. */
      on(event: "response", listener: (client: unknown, statusCode: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export default autocannon;
}
