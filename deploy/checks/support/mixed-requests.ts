/**
 * A fixed number of requests through the balancer, of the kinds a Remix app
 * serves in turn: document GETs, single-fetch `.data` navigations, a validated
 * form POST (answered with a redirect) and an action POST (answered with
 * data), `concurrency` of them in flight. Each is counted by its answer, never
 * timed.
 */

export type Kind = "document" | "data" | "form-post" | "action-post";

export const KINDS: readonly Kind[] = ["document", "data", "form-post", "action-post"];

export interface Sample {
  kind: Kind;
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

async function send(baseUrl: string, n: number): Promise<Sample> {
  const kind = KINDS[n % KINDS.length]!;
  const { path, init, expect } = plan(kind, n);
  const sample: Sample = { kind };
  try {
    // A time-out with headroom: a request that hangs is a failure, never a wait without end.
    const response = await fetch(baseUrl + path, { ...init, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    sample.status = response.status;
    sample.upstream = response.headers.get("x-upstream") ?? undefined;
    if (response.status !== expect) sample.failure = `status ${response.status}, expected ${expect}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    sample.failure = `${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ""}`;
  }
  return sample;
}

/** Sends `count` requests (a multiple of the kinds' number: as many of each), `concurrency` at a time. */
export async function sendMixed(
  baseUrl: string,
  { count, concurrency }: { count: number; concurrency: number },
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let next = 0;
  async function worker() {
    while (next < count) samples.push(await send(baseUrl, next++));
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return samples;
}
