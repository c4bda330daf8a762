/**
 * A recorded event's frame resolved as Sentry resolves it: the frame's file names a debug id in
 * the event's `debug_meta`, and the map uploaded with that id (under the release) maps its
 * position back to the source.
 */
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { uploadedMaps } from "./check";
import type { UploadRecord } from "./record";

export interface Frame {
  filename?: string;
  abs_path?: string;
  lineno?: number;
  colno?: number;
}

export interface DebugMeta {
  images?: { type?: string; code_file?: string; debug_id?: string }[];
}

export interface ResolvedFrame {
  source: string;
  line: number;
}

/** Where the frame points in the source, or why it does not resolve. */
export function resolveFrame(
  frame: Frame,
  debugMeta: DebugMeta | undefined,
  record: UploadRecord,
  release: string,
): ResolvedFrame | string {
  const file = frame.abs_path ?? frame.filename;
  const image = debugMeta?.images?.find((one) => one.type === "sourcemap" && one.code_file === file);
  if (!image?.debug_id) return `no debug id in the event for ${file}`;
  const map = uploadedMaps(record, release).get(image.debug_id);
  if (!map) return `no map uploaded under ${release} for ${file} (debug id ${image.debug_id})`;
  if (frame.lineno === undefined || frame.colno === undefined) return `no position in the frame of ${file}`;
  // Sentry's columns count from 1, a map's from 0.
  const position = originalPositionFor(new TraceMap(map.content), {
    line: frame.lineno,
    column: frame.colno - 1,
  });
  if (position.source === null || position.line === null)
    return `${file}:${frame.lineno}:${frame.colno} maps nowhere`;
  return { source: position.source, line: position.line };
}
