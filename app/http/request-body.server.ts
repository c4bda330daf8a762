/** Body limits that never reset the connection (the client would drop the answer): a large rest is left unread. */
export const DISCARD_AFTER_REFUSAL_BYTES = 1024 * 1024;

export async function discardBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  budget: number,
): Promise<void> {
  try {
    for (let left = budget; left > 0;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      left -= chunk.value.byteLength;
    }
    reader.releaseLock();
  } catch {
    // The client went away: nothing left to read.
  }
}

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`Request body larger than ${maxBytes} bytes`);
  }
}

/** `request` with a body that errors as soon as more than `maxBytes` arrived, whatever Content-Length said. */
export function limitRequestBody(
  request: Request,
  maxBytes: number,
): { request: Request; exceeded: () => boolean } {
  const source = request.body;
  if (!source) return { request, exceeded: () => false };
  let over = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let seen = 0;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= source.getReader();
      const chunk = await reader.read();
      if (chunk.done) return controller.close();
      seen += chunk.value.byteLength;
      if (seen <= maxBytes) return controller.enqueue(chunk.value);
      over = true;
      controller.error(new BodyTooLargeError(maxBytes));
      void discardBody(reader, DISCARD_AFTER_REFUSAL_BYTES);
    },
    cancel() {
      // An action that read part of the body: the rest is left, never reset.
      if (reader) void discardBody(reader, DISCARD_AFTER_REFUSAL_BYTES);
    },
  });
  const limited = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
  return { request: limited, exceeded: () => over };
}

export class UnreadableBodyError extends Error {
  override name = "UnreadableBodyError";
  constructor(
    /** A Refusal (app/refusals.server.ts builds on this layer, so the shape is spelt out). */
    readonly refusal: { status: 400 | 415; reason: string },
    options?: ErrorOptions,
  ) {
    super(`Request body refused: ${refusal.reason}`, options);
  }
}

const FORM_MEDIA_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** `formData()`/`json()` reject with an UnreadableBodyError (415 not a form, 400 malformed). */
export function refusingUnreadableBodies(request: Request): Request {
  const { formData, json } = request;
  request.formData = function () {
    if (request.bodyUsed) return formData.call(request);
    return formData.call(request).catch((error: unknown) => {
      throw unreadable(request, error, isFormMediaType(request) ? 400 : 415, "not a form");
    });
  };
  request.json = function () {
    if (request.bodyUsed) return json.call(request);
    return json.call(request).catch((error: unknown) => {
      throw unreadable(request, error, 400, "malformed JSON");
    });
  };
  return request;
}

function isFormMediaType(request: Request): boolean {
  const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  return FORM_MEDIA_TYPES.has(mediaType);
}

function unreadable(request: Request, error: unknown, status: 400 | 415, reason: string): unknown {
  // Too large (answered 413 by the data-function wrapper) or the client went away: not a shape.
  if (error instanceof BodyTooLargeError || request.signal.aborted) return error;
  const why = status === 400 && reason === "not a form" ? "malformed form body" : reason;
  return new UnreadableBodyError({ status, reason: why }, { cause: error });
}
