/**
 * The recorder's full view, as `npm run sentry:recorder -- --json` prints it:
 * one JSON line per item, its whole payload (tags, contexts, exception frames,
 * spans) beside its envelope's header, so `jq` can pick out a digest or a trace.
 */
import type { RecordedEnvelope } from "./envelope";

/** One JSON line (no newline inside) per item of `envelope`; binary payloads by size only. */
export function itemJsonLines(envelope: RecordedEnvelope): string[] {
  const receivedAt = new Date(envelope.receivedAt).toISOString();
  return envelope.items.map((item) =>
    JSON.stringify({
      receivedAt,
      project: envelope.project,
      answeredStatus: envelope.answeredStatus,
      envelope: envelope.header,
      item: item.header,
      // Attachments and replays are bytes: a terminal or `jq` has no use for them.
      ...(Buffer.isBuffer(item.payload) ? { binaryBytes: item.payload.length } : { payload: item.payload }),
    }),
  );
}
