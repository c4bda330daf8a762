/**
 * Remix 2 encodes loader data for the browser (every document and every
 * single fetch) with a time-out of 4.95 s that nothing clears once the data is
 * written. The pending timer holds the request's async context, and with it the
 * whole request (its IncomingMessage, response, scope), for those seconds
 * after the answer: under load the server kept seconds of requests alive
 * (docs/decisions/0097). React Router clears it once encoded
 * (remix-run/react-router#14735); the patches of turbo-stream and
 * @remix-run/server-runtime do the same on Remix 2. These tests fail when
 * either patch stops applying, or the timer outlives the answer again.
 */
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createRequestHandler } from "@remix-run/node";
import { ServerMode } from "@remix-run/server-runtime/dist/mode.js";
import { encodeViaTurboStream } from "@remix-run/server-runtime/dist/single-fetch.js";
import { describe, expect, it } from "vitest";
import { buildWith } from "../server/adapter/refusal-test-build";
import { adviseOnFailure, PATCH_ADVICE } from "../test-support/guard-advice";

adviseOnFailure(PATCH_ADVICE);

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(path.join(ROOT, "package.json"));
const MARKER = "[scaffold patch";
const PATCHED = { "turbo-stream": "2.4.1", "@remix-run/server-runtime": "2.17.5" } as const;

/** Timers `run` made (in its async context: not the test runner's own) still pending after it: a cleared or fired one is destroyed. */
async function timersLeftBy(run: () => Promise<unknown>): Promise<number> {
  const pending = new Set<number>();
  const inRun = new AsyncLocalStorage<true>();
  const hook = createHook({
    init: (id, type) => void (type === "Timeout" && inRun.getStore() && pending.add(id)),
    destroy: (id) => void pending.delete(id),
  }).enable();
  try {
    await inRun.run(true, run);
    // Destroy hooks run after the current turn.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    return pending.size;
  } finally {
    hook.disable();
  }
}

describe("the patches of Remix 2's single-fetch encoding", () => {
  it("are made for the installed versions, the only copies, and applied where Node and Vite load them", () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    for (const [name, version] of Object.entries(PATCHED)) {
      const file = `patches/${name.replace("/", "+")}+${version}.patch`;
      expect(readFileSync(path.join(ROOT, file), "utf8"), file).toContain(MARKER);
      const dir = path.dirname(require.resolve(`${name}/package.json`));
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        version: string;
        main: string;
        module?: string;
        exports?: Record<string, { import?: string }>;
      };
      expect(pkg.version, `${name} changed version: review ${file} against it`).toBe(version);
      const copies = Object.keys(lock.packages).filter((key) => key.endsWith(`node_modules/${name}`));
      expect(copies, `a second copy of ${name}: dedupe it or patch it too`).toEqual([`node_modules/${name}`]);
      const loaded =
        name === "turbo-stream"
          ? [pkg.main, pkg.exports?.["."]?.import ?? ""]
          : [
              path.join(path.dirname(pkg.main), "single-fetch.js"),
              path.join(path.dirname(pkg.module!), "single-fetch.js"),
            ];
      for (const entry of loaded)
        expect(readFileSync(path.join(dir, entry), "utf8"), entry).toContain(MARKER);
    }
  });

  it("leaves no timer and no listener behind once the data is encoded", async () => {
    const signal = new AbortController().signal;
    const left = await timersLeftBy(async () => {
      const data = { now: "here", later: Promise.resolve("there") };
      const stream = encodeViaTurboStream(data, signal, undefined, ServerMode.Production);
      expect(await new Response(stream).text()).toContain("there");
    });
    expect(left).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("still times out data that never settles", async () => {
    const never = new Promise(() => {});
    const stream = encodeViaTurboStream({ never }, new AbortController().signal, 20, ServerMode.Production);
    expect(await new Response(stream).text()).toContain("SanitizedError");
  });

  it("holds nothing once the framework answered a document or a single fetch", async () => {
    const handle = createRequestHandler(
      buildWith(() => {}),
      "production",
    );
    for (const url of ["http://localhost/act", "http://localhost/act.data"]) {
      const left = await timersLeftBy(async () => {
        const response = await handle(new Request(url));
        await response.text();
        expect(response.status, url).toBe(200);
      });
      expect(left, url).toBe(0);
    }
  });
});
