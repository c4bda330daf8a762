import type { IncomingMessage } from "node:http";
import type { Contexts, DataCollection, Integration } from "@sentry/core";
import { instanceName, outboundProxy, sentryEnvironment, sentryIsOn, type Env } from "~/env.server";
import { OPERATIONAL_PATHS } from "~/http/operational-paths";
import { tracePropagationTargets } from "~/http/trace-propagation-targets.server";
import { readActiveSpanIdWith } from "~/logging/request-log-fields.server";
import { completeUntracedContext } from "./request-trace.server";
import { requestRateOf, requestTraceDecider, skipsRequestSpan, tagRequestSpan } from "./request-spans.server";
import { sdkTraceSampler } from "./trace-sampling.server";
import { ALLOWED_REQUEST_HEADERS, sharedSentryOptions } from "./sentry-options";
import { sentryLogsOptions } from "./sentry-logs.server";
import { ingestTransport } from "./sentry-transport.server";
import { loadServerSdk, sdkFramesNotInApp, serverSdk } from "./server-sdk.server";
import { traceBudget } from "./trace-budget.server";

/** Set in full: the SDK's defaults collect everything (cookies, headers, bodies, IPs, local variables). */
export const SERVER_DATA_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: [...ALLOWED_REQUEST_HEADERS] }, response: false },
  httpBodies: [],
  urlQueryParams: true,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
  frameContextLines: 7,
} as const satisfies Required<DataCollection>;

/** Express: a transaction per middleware; Modules: all packages per event; Dedupe: one failure per request. */
const OMITTED_INTEGRATIONS = new Set(["Express", "Modules", "Context", "Dedupe"]);

export async function initServerSentry(
  env: Env,
): Promise<((request: IncomingMessage) => boolean) | undefined> {
  if (!sentryIsOn(env)) return undefined;
  const sdk = await loadServerSdk();
  const Sentry = sdk.node;
  const shared = sharedSentryOptions(env, OPERATIONAL_PATHS);
  const logs = sentryLogsOptions(sdk, env);
  const rates = {
    budget: traceBudget(env.SENTRY_TRACES_PER_SECOND),
    configuredRate: env.SENTRY_TRACES_SAMPLE_RATE,
  };
  const decide = requestTraceDecider(sdk, rates);
  Sentry.init({
    ...shared,
    tracesSampler: sdkTraceSampler(rates, {
      requestRate: () => requestRateOf(sdk),
      sampleRand: () => Sentry.getCurrentScope().getPropagationContext().sampleRand,
    }),
    dataCollection: SERVER_DATA_COLLECTION,
    // Span streaming would skip beforeSendTransaction and the event processors (docs/decisions/0057).
    traceLifecycle: "static",
    enableOpenTelemetrySetup: false,
    // Database clients' spans (docs/decisions/0079).
    enableRuntimeChannelInjection: true,
    stackParser: sdkFramesNotInApp(Sentry.defaultStackParser),
    transport: ingestTransport(sdk, { proxy: outboundProxy(env) }),
    transportOptions: {
      ...shared.transportOptions,
      // A new connection per transaction costs each traced request CPU.
      keepAlive: true,
    },
    environment: sentryEnvironment(env),
    spotlight: env.SENTRY_SPOTLIGHT ?? false, // Set either way: the SDK reads SENTRY_SPOTLIGHT itself.
    serverName: instanceName(env),
    // Only the team's own services learn the trace (docs/configuration.md).
    tracePropagationTargets: tracePropagationTargets(env),
    propagateTraceparent: true,
    beforeSendLog: logs.beforeSendLog,
    integrations: (defaults) => [
      ...logs.integrations,
      ...defaults.filter((integration) => !OMITTED_INTEGRATIONS.has(integration.name)),
      // Nothing dropped by status: a real route's 404 keeps its transaction.
      Sentry.httpIntegration({
        ignoreIncomingRequests: skipsRequestSpan(sdk, decide),
        onSpanCreated: tagRequestSpan(sdk),
        maxRequestBodySize: "none",
        ignoreStatusCodes: [],
        // Release-health sessions cost work on every request.
        sessions: false,
      }),
      contextIntegration(Sentry.nodeContextIntegration()),
    ],
  });
  completeUntracedContext(sdk);
  readActiveSpanIdWith(() => Sentry.getActiveSpan()?.spanContext().spanId);
  return (request) => decide(request).traced;
}

export function flushServerSentry(timeoutMs: number): Promise<boolean> {
  const Sentry = serverSdk()?.node;
  return Sentry?.getClient() ? Sentry.flush(timeoutMs) : Promise.resolve(true);
}

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
      // What the event already has wins, as in the integration's own merge.
      const own = event.contexts ?? {};
      event.contexts = { ...own };
      for (const [name, context] of Object.entries(cached.contexts)) {
        event.contexts[name] = { ...context, ...own[name] };
      }
      return event;
    },
  };
}
