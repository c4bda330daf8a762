import { describe, expect, it } from "vitest";
import { moduleOf, summarizeHeapProfile, type HeapProfileNode } from "./heap-profile";

const node = (url: string, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode => ({
  callFrame: { functionName: "f", url },
  selfSize,
  children,
});
const MB = 2 ** 20;

describe("moduleOf", () => {
  it("names the package, the app's build, or nothing for Node's own frames", () => {
    expect(moduleOf("file:///w/node_modules/@sentry/core/build/esm/scope.js")).toBe("@sentry/core");
    expect(moduleOf("file:///w/node_modules/react-dom/cjs/x.js")).toBe("react-dom");
    expect(moduleOf("file:///w/build-bench-300/server/assets/chunk.js")).toBe("app build");
    expect(moduleOf("node:internal/modules/esm/load")).toBe("module loading");
    expect(moduleOf("node:_http_server")).toBeUndefined();
  });
});

describe("summarizeHeapProfile", () => {
  it("charges each allocation to the frame nearest to it that is a package or the app", () => {
    const profile = {
      head: node("", 0, [
        node("file:///w/build-bench-1/server/index.js", 1 * MB, [
          // The SDK calls into node:http, which allocates: the SDK's.
          node("file:///w/node_modules/@sentry/node/build/esm/http.js", 0, [
            node("node:_http_client", 2 * MB),
          ]),
          node("node:internal/modules/esm/load", 4 * MB),
        ]),
        node("node:net", 8 * MB),
      ]),
    };
    const summary = summarizeHeapProfile(profile);
    expect(Object.fromEntries(summary.byOwner)).toEqual({
      "ours (the app's build)": 1,
      "Sentry SDK": 2,
      "module loading (sources, code)": 4,
      "Node/V8 (no package frame)": 8,
    });
    expect(summary.totalMb).toBe(15);
  });
});
