import { createLogger } from "vite";
import { describe, expect, it } from "vitest";
import { buildLogger, expectedRollupWarning } from "./build-warnings";

describe("the build's expected warnings", () => {
  it("silences zod's unreadable annotations, empty route chunks and Rolldown's hook timings only", () => {
    const zod = "/app/node_modules/zod/v4/core/util.js";
    expect(expectedRollupWarning({ code: "INVALID_ANNOTATION", id: zod, message: "" })).toBe(true);
    expect(
      expectedRollupWarning({ code: "EMPTY_BUNDLE", message: 'Generated an empty chunk: "healthz".' }),
    ).toBe(true);
    expect(expectedRollupWarning({ code: "INVALID_ANNOTATION", id: "/app/app/root.tsx", message: "" })).toBe(
      false,
    );
    expect(expectedRollupWarning({ code: "SOURCEMAP_BROKEN", plugin: "vite:css-post", message: "" })).toBe(
      false,
    );
    expect(expectedRollupWarning({ code: "PLUGIN_TIMINGS", message: "callbacks ran for 5.7s" })).toBe(true);
    expect(expectedRollupWarning({ code: "CIRCULAR_DEPENDENCY", message: "" })).toBe(false);
  });

  it("a warning fails a strict build and names itself; otherwise it is printed", () => {
    const printed: string[] = [];
    const logger = { ...createLogger("silent"), warn: (message: string) => void printed.push(message) };
    expect(() => buildLogger(true, logger).warn("Something odd")).toThrow(
      /new build warning[^]*Something odd/,
    );
    expect(() => buildLogger(true, logger).warnOnce("Once odd")).toThrow(/Once odd/);
    buildLogger(false, logger).warn("Printed");
    expect(printed).toEqual(["Printed"]);
    // The frameworks' warning about production maps, as Remix and React Router word it.
    const frameworks =
      "\n  ⚠️  Source maps are enabled in production\n     This makes your server code publicly";
    buildLogger(true, logger).warn(frameworks);
    buildLogger(false, logger).warn(frameworks);
    expect(printed).toEqual(["Printed"]);
  });
});
