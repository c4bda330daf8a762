/** What the upload stand-in (../sentry-upload-stand-in.ts) records: one entry per request the tool made. */
import { readZip } from "./zip.ts";

export interface UploadedFile {
  /** As the tool names it: `~/assets/x.js`. */
  url: string;
  /** `minified_source` or `source_map`. */
  type: string;
  debugId?: string;
  /** The minified file's map, by the name its entry gives. */
  sourcemap?: string;
  content: string;
}

/** An artifact bundle Sentry would have stored: under `release` (when given), for `projects`. */
export interface UploadedBundle {
  release?: string;
  dist?: string;
  projects: string[];
  files: UploadedFile[];
}

export interface UploadRecord {
  /** `METHOD /path` of every request, in arrival order. */
  requests: string[];
  releases: { version: string; projects: string[] }[];
  bundles: UploadedBundle[];
}

export function emptyRecord(): UploadRecord {
  return { requests: [], releases: [], bundles: [] };
}

interface Manifest {
  release?: string;
  files: Record<string, { url: string; type: string; headers?: Record<string, string> }>;
}

/** An assembled bundle's zip: manifest.json lists the files, each stored under its own key. */
export function unpackBundle(
  zip: Buffer,
  assembled: { version?: string; dist?: string; projects: string[] },
): UploadedBundle {
  const entries = readZip(zip);
  const manifest = JSON.parse(entries.get("manifest.json")?.toString("utf8") ?? "null") as Manifest | null;
  if (!manifest) throw new Error("artifact bundle without manifest.json");
  const files = Object.entries(manifest.files).map(([key, file]) => {
    const content = entries.get(key);
    if (!content) throw new Error(`artifact bundle: ${key} listed but absent`);
    const headers = Object.fromEntries(
      Object.entries(file.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    return {
      url: file.url,
      type: file.type,
      debugId: headers["debug-id"],
      sourcemap: headers["sourcemap"],
      content: content.toString("utf8"),
    };
  });
  return {
    release: assembled.version ?? manifest.release,
    dist: assembled.dist,
    projects: assembled.projects,
    files,
  };
}
