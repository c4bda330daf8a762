/**
 * A stand-in for the npm registry's audit service, on 127.0.0.1: it answers
 * `POST /-/npm/v1/security/advisories/bulk` (what `npm audit` asks) with a
 * recorded answer and 404 to anything else (npm then reports no fix
 * available, which the gate does not read). Pointed at by
 * `npm_config_registry`, it lets a test run npm's own audit client, and the
 * gate around it, where the real service cannot be reached.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** The bulk endpoint's answer: advisories by package name. */
export type BulkAdvisories = Record<string, BulkAdvisory[]>;
export interface BulkAdvisory {
  id: number;
  url: string;
  title: string;
  severity: "info" | "low" | "moderate" | "high" | "critical";
  vulnerable_versions: string;
  cwe: string[];
  cvss: { score: number; vectorString: string | null };
}

export interface AdvisoryRegistry {
  /** For `npm_config_registry`. */
  url: string;
  /** The package names of each bulk request received (npm sends every installed package and version). */
  asked: string[][];
  close(): Promise<void>;
}

const BULK_PATH = "/-/npm/v1/security/advisories/bulk";

/** `answer` undefined: a registry without the audit service (404), as some private mirrors are. */
export async function startAdvisoryRegistry(answer: BulkAdvisories | undefined): Promise<AdvisoryRegistry> {
  const asked: string[][] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== BULK_PATH || answer === undefined) {
        response.writeHead(404, { "content-type": "application/json" }).end("{}");
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      asked.push(Object.keys(JSON.parse(body.toString("utf8")) as object));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    asked,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
