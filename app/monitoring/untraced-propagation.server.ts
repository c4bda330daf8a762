import type { ClientRequest } from "node:http";
import type * as SentryNode from "@sentry/node";
import type { ServerSdk } from "./server-sdk.server";
import { untracedTrace, untracedTraceData } from "./request-trace.server";

/** No SDK scope when untraced (decision 0063): our trace, set in the SDK's hooks, makes it inject nothing. */

type FetchHook = NonNullable<
  NonNullable<Parameters<typeof SentryNode.nativeNodeFetchIntegration>[0]>["requestHook"]
>;
type HttpHook = NonNullable<
  NonNullable<Parameters<typeof SentryNode.httpIntegration>[0]>["outgoingRequestHook"]
>;

interface PropagationHeaders {
  "sentry-trace": string;
  traceparent: string;
  baggage?: string;
}

/** The current untraced request's headers for `url`, or undefined: traced, or `url` not on the allow-list. */
function untracedHeaders(sdk: ServerSdk, url: string): PropagationHeaders | undefined {
  const trace = untracedTrace();
  if (!trace) return undefined;
  const { tracePropagationTargets, tracesSampleRate } = sdk.node.getClient()?.getOptions() ?? {};
  if (!sdk.core.shouldPropagateTraceForUrl(url, tracePropagationTargets)) return undefined;
  const { sentryTrace, baggage } = untracedTraceData(sdk, trace, tracesSampleRate ?? 0);
  const [traceId = "", spanId = ""] = sentryTrace.split("-");
  return {
    "sentry-trace": sentryTrace,
    traceparent: sdk.core.generateTraceparentHeader(traceId, spanId, false),
    baggage,
  };
}

/** `node:http` and `https`: the SDK adds nothing once `sentry-trace` is set. */
export function untracedHttpHook(sdk: ServerSdk): HttpHook {
  return (_span, request: ClientRequest) => {
    if (request.getHeader("sentry-trace") !== undefined) return;
    const headers = untracedHeaders(sdk, sdk.server.getRequestUrlFromClientRequest(request));
    if (!headers) return;
    request.setHeader("sentry-trace", headers["sentry-trace"]);
    if (request.getHeader("traceparent") === undefined) request.setHeader("traceparent", headers.traceparent);
    const baggage =
      headers.baggage && sdk.core.mergeBaggageHeaders(request.getHeader("baggage"), headers.baggage);
    if (baggage) request.setHeader("baggage", baggage);
  };
}

/** `fetch` (undici): a second `baggage` header is the same list as one joined by commas. */
export function untracedFetchHook(sdk: ServerSdk): FetchHook {
  return (_span, request) => {
    const url = URL.parse(request.path, request.origin)?.href;
    const headers = url === undefined ? undefined : untracedHeaders(sdk, url);
    if (!headers) return;
    for (const [name, value] of Object.entries(headers)) if (value) request.addHeader(name, value);
  };
}
