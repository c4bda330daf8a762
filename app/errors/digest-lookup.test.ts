/**
 * The shape test of the browser's one patch (digest-lookup.client.ts wraps
 * `window.fetch`): it works only while Remix's single-fetch client calls the
 * global `fetch` at request time. If Remix took a reference at load, or
 * fetched through something else, the digest of a failed navigation would
 * silently stop reaching the error page; this fails instead.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const remixReact = path.dirname(createRequire(import.meta.url).resolve("@remix-run/react/package.json"));
const singleFetch = readFileSync(path.join(remixReact, "dist/esm/single-fetch.js"), "utf8");

describe("what the digest lookup assumes of Remix's single-fetch client", () => {
  it("calls the global fetch, by name, for every .data request", () => {
    expect(singleFetch).toMatch(/\bawait fetch\(url, init\)/);
    expect(singleFetch).not.toMatch(/(?:const|let|var)\s+fetch\b|import\s*\{[^}]*\bfetch\b/);
  });
});
