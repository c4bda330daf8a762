/**
 * The shape test of the browser's one patch (digest-lookup.client.ts wraps
 * `window.fetch`): it works only while React Router's single-fetch client
 * calls the global `fetch` at request time. If it took a reference at load,
 * or fetched through something else, the digest of a failed navigation would
 * silently stop reaching the error page; this fails instead.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const reactRouter = path.dirname(createRequire(import.meta.url).resolve("react-router/package.json"));

/** Every module file under `dir` (React Router 8 ships one file per source module, 7 hashed chunks). */
function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.m?js$/.test(name))
    .map((name) => path.join(dir, name));
}

/** The browser bundles' files that hold the single-fetch client. */
function singleFetchClients(): string[] {
  return ["development", "production"].flatMap((build) =>
    modulesUnder(path.join(reactRouter, "dist", build))
      .map((file) => readFileSync(file, "utf8"))
      .filter((source) => source.includes("async function fetchAndDecodeViaTurboStream(")),
  );
}

describe("what the digest lookup assumes of React Router's single-fetch client", () => {
  it("calls the global fetch, by name, for every .data request", () => {
    const clients = singleFetchClients();
    expect(clients.length).toBeGreaterThan(0);
    for (const source of clients) {
      expect(source).toMatch(/\bawait fetch\(url, await createRequestInit\(request\)\)/);
      expect(source).not.toMatch(/(?:const|let|var)\s+fetch\s*=|import\s*\{[^}]*\bfetch\b/);
    }
  });
});
