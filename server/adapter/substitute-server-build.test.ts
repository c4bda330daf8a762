import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Plugin } from "vite";
import { WRAPPED_SERVER_BUILD, SERVER_BUILD_ID, substituteServerBuild } from "./substitute-server-build";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("substitute-server-build.ts"));

// That the framework loads its build through SERVER_BUILD_ID: framework-plugin.test.ts.
describe("substituteServerBuild", () => {
  const resolveId = substituteServerBuild().resolveId as (source: string, importer?: string) => string | null;

  it("gives everyone but wrapped-server-build.ts the app's build instead", () => {
    expect(resolveId(SERVER_BUILD_ID)).toBe(WRAPPED_SERVER_BUILD);
    expect(resolveId(SERVER_BUILD_ID, "/somewhere/else.ts")).toBe(WRAPPED_SERVER_BUILD);
    expect(resolveId(SERVER_BUILD_ID, WRAPPED_SERVER_BUILD)).toBeNull();
    expect(resolveId(`${SERVER_BUILD_ID}-other`)).toBeNull();
  });

  it("runs before the framework's own resolver, and WRAPPED_SERVER_BUILD exists", () => {
    expect((substituteServerBuild() as Plugin).enforce).toBe("pre");
    expect(readFileSync(WRAPPED_SERVER_BUILD, "utf8")).toContain(`from "${SERVER_BUILD_ID}"`);
  });
});
