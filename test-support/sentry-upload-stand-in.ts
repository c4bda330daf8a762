/**
 * A stand-in for the part of Sentry's web API that source-map uploads use, on 127.0.0.1: what
 * `@sentry/vite-plugin` (through the `sentry` CLI package) calls with `SENTRY_URL` pointing here.
 * It records releases created and the artifact bundles assembled, unpacked (sentry-upload/record.ts).
 *
 *   GET  /api/0/organizations/<org>/                       the org, with this server as its region
 *   POST /api/0/organizations/<org>/releases/              a release created
 *   PUT  /api/0/organizations/<org>/releases/<version>/    a release finalized
 *   GET  /api/0/organizations/<org>/chunk-upload/          where and how to upload chunks
 *   POST /api/0/organizations/<org>/chunk-upload/          chunks (multipart, named by their SHA-1)
 *   POST /api/0/organizations/<org>/artifactbundle/assemble/  the chunks joined into a bundle
 *
 * Anything else answers 404, and is in the record's `requests` like every call.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, send, sendError } from "./sentry-recorder/http.ts";
import { emptyRecord, unpackBundle, type UploadRecord } from "./sentry-upload/record.ts";

export interface UploadStandIn {
  /** For `SENTRY_URL` or the plugin's `url` option. */
  readonly url: string;
  readonly record: UploadRecord;
  close(): Promise<void>;
}

const ORG_PATH = /^\/api\/0\/organizations\/([^/]+)\/(.*)$/;
const CHUNK_SIZE = 8 * 1024 * 1024;

export interface StandInOptions {
  /** Sees the record after every request that changed it. */
  onChange?: (record: UploadRecord) => void;
  /** Keeps no process alive: for a build that ends when its work does. */
  unref?: boolean;
}

export async function startUploadStandIn({
  onChange = () => {},
  unref = false,
}: StandInOptions = {}): Promise<UploadStandIn> {
  const record = emptyRecord();
  const chunks = new Map<string, Buffer>();
  const assembled = new Set<string>();
  const server = createServer((req, res) => {
    record.requests.push(`${req.method} ${req.url}`);
    answer(req, res).catch((error: unknown) => sendError(res, 500, `stand-in: ${(error as Error).message}`));
  });
  if (unref) server.unref().on("connection", (socket) => socket.unref());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [, org, rest = ""] = ORG_PATH.exec(new URL(req.url ?? "/", origin).pathname) ?? [];
    const body = await readBody(req);
    const json = () => JSON.parse(body.toString("utf8") || "{}") as Record<string, unknown>;
    const ok = (status: number, value: unknown) => send(res, status, {}, JSON.stringify(value));
    if (!org) return sendError(res, 404, "not an organization endpoint");
    const route = `${req.method} ${rest}`;
    if (route === "GET ") return ok(200, { id: "1", slug: org, name: org, links: { regionUrl: origin } });
    if (route === "POST releases/") {
      const { version, projects } = json() as { version: string; projects: string[] };
      record.releases.push({ version, projects });
      onChange(record);
      return ok(201, { version, projects: projects.map((slug) => ({ slug })), dateCreated: new Date() });
    }
    if (req.method === "PUT" && rest.startsWith("releases/")) return ok(200, { version: rest.split("/")[1] });
    if (route === "GET chunk-upload/") {
      // No compression offered: each entry is deflated in the zip, and chunks come as they are.
      return ok(200, {
        url: `${origin}/api/0/organizations/${org}/chunk-upload/`,
        ...{ chunkSize: CHUNK_SIZE, chunksPerRequest: 64, maxRequestSize: 4 * CHUNK_SIZE, concurrency: 1 },
        ...{ maxFileSize: 2 ** 31, maxWait: 60, hashAlgorithm: "sha1", compression: [] },
      });
    }
    if (route === "POST chunk-upload/") {
      // The platform's own multipart parser, the one fetch uses.
      const form = await new Response(new Uint8Array(body), {
        headers: { "content-type": req.headers["content-type"] ?? "" },
      }).formData();
      for (const [name, value] of form) {
        if (name !== "file" || typeof value === "string")
          return sendError(res, 400, `unexpected part ${name}`);
        const chunk = Buffer.from(await value.arrayBuffer());
        const sha1 = createHash("sha1").update(chunk).digest("hex");
        if (sha1 !== value.name) return sendError(res, 400, `chunk named ${value.name} has SHA-1 ${sha1}`);
        chunks.set(sha1, chunk);
      }
      return ok(200, {});
    }
    if (route === "POST artifactbundle/assemble/") {
      const request = json() as {
        checksum: string;
        chunks: string[];
        projects: string[];
        version?: string;
        dist?: string;
      };
      if (assembled.has(request.checksum)) return ok(200, { state: "ok", missingChunks: [] });
      const missingChunks = request.chunks.filter((sha1) => !chunks.has(sha1));
      if (missingChunks.length > 0) return ok(200, { state: "not_found", missingChunks });
      const zip = Buffer.concat(request.chunks.map((sha1) => chunks.get(sha1) as Buffer));
      if (createHash("sha1").update(zip).digest("hex") !== request.checksum)
        return ok(200, { state: "error", missingChunks: [], detail: "checksum mismatch" });
      assembled.add(request.checksum);
      record.bundles.push(unpackBundle(zip, request));
      onChange(record);
      return ok(200, { state: "ok", missingChunks: [] });
    }
    sendError(res, 404, `the stand-in does not answer ${route}`);
  }

  return {
    url: `${origin}/`,
    record,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
