import type { Contexts, Integration } from "@sentry/core";

/** Errors always get fresh memory figures. */
export const TRANSACTION_CONTEXT_MAX_AGE_MS = 1_000;

/** The SDK's integration reads the process's memory for every event, a real share of a traced request's CPU. */
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
