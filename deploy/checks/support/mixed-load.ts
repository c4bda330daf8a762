/**
 * Steady mixed traffic through the balancer, the kinds a Remix app serves:
 * document GETs, single-fetch `.data` navigations, a validated form POST
 * (answered with a redirect) and an action POST (answered with data). Closed
 * loop with `concurrency` requests in flight; it stops by itself after
 * `maxRequests` or `maxMs`, whichever comes first, or when told to.
 */

export type Kind = "document" | "data" | "form-post" | "action-post";

export interface Sample {
  kind: Kind;
  /** `performance.now()` when the request was sent. */
  start: number;
  ms: number;
  status?: number;
  /** The connection error, or why the answer was not the expected one. */
  failure?: string;
  /** The instance that answered (`X-Upstream`, test-only header of the nginx configuration). */
  upstream?: string;
}

interface Plan {
  path: string;
  init: RequestInit;
  expect: number;
}

const KINDS: Kind[] = ["document", "data", "form-post", "action-post"];

function plan(kind: Kind, n: number): Plan {
  const id = (n % 50) + 1;
  const form = (fields: Record<string, string>): RequestInit => ({
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  switch (kind) {
    case "document":
      return { path: `/fixtures/items/${id}`, init: {}, expect: 200 };
    case "data":
      return { path: `/fixtures/items/${id}.data`, init: {}, expect: 200 };
    case "form-post":
      return {
        path: "/fixtures/form",
        init: form({ name: `Ada ${n}`, email: "ada@example.com" }),
        expect: 302,
      };
    case "action-post":
      return { path: "/fixtures/action-ok", init: form({ note: `note ${n}` }), expect: 200 };
  }
}

export interface MixedLoad {
  readonly samples: Sample[];
  /** Resolves when the last request in flight has finished. */
  stop(): Promise<Sample[]>;
  readonly done: Promise<Sample[]>;
}

export function startMixedLoad(
  baseUrl: string,
  { concurrency, maxRequests, maxMs }: { concurrency: number; maxRequests: number; maxMs: number },
): MixedLoad {
  const samples: Sample[] = [];
  const deadline = performance.now() + maxMs;
  let sent = 0;
  let stopped = false;
  async function worker() {
    while (!stopped && sent < maxRequests && performance.now() < deadline) {
      const n = sent++;
      const kind = KINDS[n % KINDS.length]!;
      const { path, init, expect } = plan(kind, n);
      const start = performance.now();
      const sample: Sample = { kind, start, ms: 0 };
      try {
        const response = await fetch(baseUrl + path, { ...init, signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        sample.status = response.status;
        sample.upstream = response.headers.get("x-upstream") ?? undefined;
        if (response.status !== expect) sample.failure = `status ${response.status}, expected ${expect}`;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        sample.failure = `${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ""}`;
      }
      sample.ms = performance.now() - start;
      samples.push(sample);
    }
  }
  const done = Promise.all(Array.from({ length: concurrency }, worker)).then(() => samples);
  return {
    samples,
    done,
    stop() {
      stopped = true;
      return done;
    },
  };
}
