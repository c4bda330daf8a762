import type { InstrumentationHandlerResult, ServerInstrumentation } from "react-router";
import { serverSdk } from "./server-sdk.server";

/** A traced request's loader, action and middleware spans, and its final name (docs/decisions/0085). */
export const routerInstrumentation: ServerInstrumentation = {
  handler(handler) {
    handler.instrument({
      async request(handle, { request }) {
        const { meta } = await handle();
        if (meta?.pattern) nameRequestSpan(request.method, routePattern(meta.pattern));
      },
    });
  },
  route(route) {
    route.instrument({
      loader: handlerSpan("loader", route.id),
      action: handlerSpan("action", route.id),
      middleware: handlerSpan("middleware", route.id),
    });
  },
};

/** React Router joins the matched paths as they are written (`fixtures/items/:id`, `*`). */
const routePattern = (pattern: string) => "/" + pattern.split("/").filter(Boolean).join("/");

const SEGMENT_NAME_SOURCE = "sentry.segment.name.source";

function nameRequestSpan(method: string, route: string): void {
  const Sentry = serverSdk()?.node;
  const active = Sentry?.getActiveSpan();
  if (!Sentry || !active?.isRecording()) return;
  const span = Sentry.getRootSpan(active);
  span.updateName(`${method.toUpperCase()} ${route}`);
  span.setAttributes({ [SEGMENT_NAME_SOURCE]: "route", "http.route": route });
}

type Call = () => Promise<InstrumentationHandlerResult>;

function handlerSpan(kind: "loader" | "action" | "middleware", routeId: string) {
  return async (call: Call, { pattern }: { pattern: string }): Promise<void> => {
    const Sentry = serverSdk()?.node;
    if (!Sentry?.getActiveSpan()?.isRecording()) return void (await call());
    const attributes = {
      "sentry.origin": "auto.function.react_router",
      "code.function": kind,
      "http.route": routePattern(pattern),
    };
    await Sentry.startSpan(
      { name: routeId, op: `function.react_router.${kind}`, attributes },
      async (span) => {
        // A thrown Response (a redirect, a 404) is an answer, which React Router reports as a success.
        if ((await call()).status === "error") span.setStatus({ code: 2, message: "internal_error" });
      },
    );
  };
}
