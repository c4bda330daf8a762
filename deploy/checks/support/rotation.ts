/**
 * The part of an orchestrator that keeps a balancer's list in step with
 * readiness, for nginx OSS (which has no active health checks): it polls each
 * instance's `/readyz` and takes the instance out of rotation (`down`, then a
 * graceful nginx reload) as soon as it fails — a draining instance answers
 * 503, a stopped one refuses — and back in once it answers 200 again.
 * Kubernetes' endpoints controller does the same for a Service, from the
 * readiness probe; SHUTDOWN_DRAIN_DELAY_MS must cover the time this takes.
 */
import type { Nginx } from "./nginx";

export interface RotationEvent {
  port: number;
  inRotation: boolean;
  /** `Date.now()` when nginx's new workers ran the changed list. */
  at: number;
}

export interface Rotation {
  readonly events: RotationEvent[];
  /** Resolves once `port` is in (or out of) nginx's rotation. */
  waitFor(port: number, inRotation: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function ready(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function watchReadiness(nginx: Nginx, ports: number[], intervalMs = 100): Rotation {
  const inRotation = new Map(ports.map((port) => [port, true]));
  const events: RotationEvent[] = [];
  let running = true;
  let failure: unknown;
  const loop = (async () => {
    while (running) {
      const states = await Promise.all(ports.map(ready));
      if (ports.some((port, index) => inRotation.get(port) !== states[index])) {
        await nginx.setUpstreams(ports.map((port, index) => ({ port, down: !states[index] })));
        const at = Date.now();
        ports.forEach((port, index) => {
          if (inRotation.get(port) === states[index]) return;
          inRotation.set(port, states[index]!);
          events.push({ port, inRotation: states[index]!, at });
        });
      }
      await sleep(intervalMs);
    }
  })().catch((error: unknown) => {
    failure = error; // a failed reload: waitFor reports it
  });
  return {
    events,
    async waitFor(port, wanted, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (inRotation.get(port) !== wanted) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`port ${port} not ${wanted ? "in" : "out of"} rotation`);
        await sleep(20);
      }
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}
