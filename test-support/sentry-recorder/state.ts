/**
 * What a running recorder holds: the envelopes recorded, the scripted answers
 * still to give, and the waiters for items yet to arrive. Kept apart from the
 * HTTP layer so each handler stays small.
 */
import type { EnvelopeItem, RecordedEnvelope } from "./envelope";
import { summarizeItem } from "./summary";

/** Predicate used by `waitForItem` / `waitForItems`. Throwing counts as "no match". */
export type ItemPredicate = (item: EnvelopeItem, env: RecordedEnvelope) => boolean;

const DEFAULT_WAIT_TIMEOUT_MS = 20_000;
/** How many item summaries a timeout message lists before eliding the rest. */
const MAX_SEEN_IN_MESSAGE = 20;

/** An answer queued by `respondNext`, for the next `remaining` envelope requests. */
export interface ScriptedAnswer {
  remaining: number;
  status: number;
  headers: Record<string, string>;
}

interface Waiter {
  /** Offers one newly recorded item; returns true when the waiter is done. */
  offer(item: EnvelopeItem, env: RecordedEnvelope): boolean;
  fail(error: Error): void;
}

/** Mutable recorder state. */
export class RecorderState {
  readonly envelopes: RecordedEnvelope[] = [];
  envelopeRequests = 0;
  closed = false;
  private readonly script: ScriptedAnswer[] = [];
  private readonly waiters = new Set<Waiter>();

  constructor(
    readonly log: (line: string) => void,
    private readonly onEnvelope: (env: RecordedEnvelope) => void = () => {},
  ) {}

  items(type?: string): EnvelopeItem[] {
    const all = this.envelopes.flatMap((env) => env.items);
    return type === undefined ? all : all.filter((item) => item.type === type);
  }

  record(env: RecordedEnvelope): void {
    this.envelopes.push(env);
    this.onEnvelope(env);
    const suffix = env.answeredStatus === 200 ? "" : ` (answered ${env.answeredStatus})`;
    if (env.items.length === 0) this.log(`[${env.project}] (empty envelope)${suffix}`);
    for (const item of env.items) {
      this.log(`[${env.project}] ${summarizeItem(item)}${suffix}`);
      for (const waiter of this.waiters) {
        if (waiter.offer(item, env)) this.waiters.delete(waiter);
      }
    }
  }

  respondNext(count: number, status: number, headers: Record<string, string> = {}): void {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`respondNext: invalid count ${count}`);
    }
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      throw new RangeError(`respondNext: invalid status ${status}`);
    }
    if (count > 0) this.script.push({ remaining: count, status, headers: { ...headers } });
  }

  /** Consume the next scripted answer, if any. */
  takeScripted(): ScriptedAnswer | undefined {
    const next = this.script[0];
    if (!next) return undefined;
    next.remaining -= 1;
    if (next.remaining === 0) this.script.shift();
    return next;
  }

  clear(): void {
    this.envelopes.length = 0;
    this.envelopeRequests = 0;
    this.script.length = 0;
  }

  waitFor(
    predicate: ItemPredicate,
    count: number,
    timeout = DEFAULT_WAIT_TIMEOUT_MS,
  ): Promise<EnvelopeItem[]> {
    if (!Number.isInteger(count) || count < 1) {
      return Promise.reject(
        new RangeError(`recorder: waitForItems needs a positive integer count, got ${count}`),
      );
    }
    return new Promise((resolve, reject) => {
      const found: EnvelopeItem[] = [];
      let lastError: unknown;
      const matches = (item: EnvelopeItem, env: RecordedEnvelope): boolean => {
        try {
          return predicate(item, env);
        } catch (err) {
          // Predicates like `i => i.payload.exception.values[0]...` throw on other item
          // types; treat that as "not this one" but mention it if we time out.
          lastError = err;
          return false;
        }
      };
      for (const env of this.envelopes) {
        for (const item of env.items) if (matches(item, env)) found.push(item);
      }
      if (found.length >= count) return resolve(found.slice(0, count));
      if (this.closed) return reject(new Error("recorder: closed, nothing more will arrive"));

      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(this.timeoutMessage(found.length, count, timeout, lastError)));
      }, timeout);
      const waiter: Waiter = {
        offer: (item, env) => {
          if (matches(item, env)) found.push(item);
          if (found.length < count) return false;
          clearTimeout(timer);
          resolve(found.slice(0, count));
          return true;
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Called on close: nothing more can arrive, so fail fast instead of at each timeout. */
  failWaiters(error: Error): void {
    this.closed = true;
    for (const waiter of this.waiters) waiter.fail(error);
    this.waiters.clear();
  }

  private timeoutMessage(matched: number, count: number, timeout: number, lastError: unknown): string {
    const what = count === 1 ? "no item matched" : `only ${matched} of ${count} items matched`;
    const predicateError = lastError
      ? `; last predicate error: ${(lastError as Error).message ?? String(lastError)}`
      : "";
    return `recorder: ${what} within ${timeout}ms (seen: ${this.seenSummary()})${predicateError}`;
  }

  private seenSummary(): string {
    const all = this.items().map(summarizeItem);
    if (all.length === 0) return "nothing";
    const shown = all.slice(0, MAX_SEEN_IN_MESSAGE).join("; ");
    return all.length > MAX_SEEN_IN_MESSAGE
      ? `${shown}; … and ${all.length - MAX_SEEN_IN_MESSAGE} more`
      : shown;
  }
}
