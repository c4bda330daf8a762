/**
 * What the sections of `npm run bench -- goals` share: the run's settings, the shape of a section
 * (its servers started and warmed once, then one pass a round, then its goals), and per-round figures.
 */
import type { Recorder } from "../../test-support/sentry-recorder";
import type { BuildSpec } from "./builds";
import type { GoalRow } from "./goal-verdict";
import type { Measurement } from "./measure";
import { ratio } from "./stats";
import type { Workload } from "./workloads";

export interface GoalContext {
  recorder: Recorder;
  /** Seconds of load per measurement, and of warm-up per server and workload. */
  duration: number;
  warmup: number;
  connections: number;
  /** The busy-work module's URL (`--plant-ms`), for the measured server of each comparison. */
  plant?: string;
  log(line: string): void;
}

export interface GoalSection {
  /** The builds its servers serve. */
  builds: BuildSpec[];
  /** Starts its servers and warms them up. */
  start(): Promise<void>;
  round(round: number): Promise<void>;
  rows(): GoalRow[];
  stop(): Promise<void>;
}

/** Every other round in reverse: a drift within a round, or a pause before it, falls on each alike. */
export const inTurn = <T>(items: readonly T[], round: number): T[] =>
  round % 2 === 1 ? [...items] : [...items].reverse();

/** The measurement, or an error when a response was not the workload's, or none came: its figures would mean nothing. */
export function expected(measurement: Measurement, what: string): Measurement {
  if (measurement.requests === 0) throw new Error(`${what}: no response`);
  return warmedUp(measurement, what);
}

/** As `expected`, where no response at all is possible: a cold server's warm-up on a busy machine. */
export function warmedUp(measurement: Measurement, what: string): Measurement {
  if (measurement.unexpected > 0)
    throw new Error(`${what}: ${measurement.unexpected} unexpected of ${measurement.requests} responses`);
  return measurement;
}

/** Values by key, one per round in order. */
export class PerRound {
  private readonly values = new Map<string, number[]>();
  add(key: string, value: number): void {
    this.values.set(key, [...this.of(key), value]);
  }
  of(key: string): number[] {
    return this.values.get(key) ?? [];
  }
  /** Round by round, `a` over `b`. */
  ratio(a: string, b: string): number[] {
    const over = this.of(b);
    return this.of(a).map((value, round) => ratio(value, over[round] ?? NaN));
  }
}

/** A request of the e2e build (`build-e2e/`) as a workload of the benchmark's. */
export function e2ePath(id: string, path: string, status: number): Workload {
  return { id, title: () => path, method: "GET", path: () => path, status, expect: /./ };
}

/** `--import` of the planted busy work, when the run plants it. */
export const plantOptions = (context: GoalContext): string | undefined =>
  context.plant ? `--import "${context.plant}"` : undefined;
