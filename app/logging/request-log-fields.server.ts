import { currentRequestLogIds } from "~/request-scope.server";

/** What joins a line to its request and trace, under OpenTelemetry's log names (docs/operating.md). */
export interface RequestLogFields {
  requestId?: string;
  trace_id?: string;
  span_id?: string;
}

let activeSpanId: () => string | undefined = () => undefined;

/** Given by monitoring when Sentry starts: logging sits below it in the layers, so cannot import it. */
export function readActiveSpanIdWith(reader: () => string | undefined): void {
  activeSpanId = reader;
}

/** Outside a request: nothing. Sentry off: no trace id is made up, the request id joins alone. */
export function requestLogFields(): RequestLogFields {
  const ids = currentRequestLogIds();
  if (!ids) return {};
  const fields: RequestLogFields = {};
  if (ids.requestId !== undefined) fields.requestId = ids.requestId;
  if (ids.trace) {
    fields.trace_id = ids.trace.traceId;
    // The one SDK call, only for the few traced requests: the span differs between a loader and its request.
    const spanId = ids.trace.traced ? activeSpanId() : undefined;
    if (spanId !== undefined) fields.span_id = spanId;
  }
  return fields;
}
