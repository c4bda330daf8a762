import type { Contexts, Integration } from "@sentry/core";

/** How old the memory figures on a transaction may be (errors always get fresh ones). */
export const TRANSACTION_CONTEXT_MAX_AGE_MS = 1_000;

/**
 * The SDK's Context integration, with memory read at most once per `maxAgeMs`
 * for transactions: it reads the process's memory for every event, a real share
 * of a traced request's CPU. Errors still get fresh figures.
 */
export function contextIntegration(
  inner: Integration,
  maxAgeMs = TRANSACTION_CONTEXT_MAX_AGE_MS,
): Integration {
  let cached: { at: number; contexts: Contexts } | undefined;
  return {
    ...inner,
    async processEvent(event, hint, client) {
      if (event.type !== "transaction" || !inner.processEvent)
        return inner.processEvent?.(event, hint, client) ?? event;
      if (!cached || Date.now() - cached.at > maxAgeMs) {
        const probe = await inner.processEvent({ type: "transaction", contexts: {} }, hint, client);
        cached = { at: Date.now(), contexts: probe?.contexts ?? {} };
      }
      // The integration's own merge: what the event already has wins.
      const own = event.contexts ?? {};
      event.contexts = { ...own };
      for (const [name, context] of Object.entries(cached.contexts)) {
        event.contexts[name] = { ...context, ...own[name] };
      }
      return event;
    },
  };
}
