import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Plugin } from "vite";
import { APP_BUILD_ENTRY, SERVER_BUILD_ID, serverBuildEntry } from "./server-build-entry";

// That the framework loads its build through SERVER_BUILD_ID: framework-plugin.test.ts.
describe("serverBuildEntry", () => {
  const resolveId = serverBuildEntry().resolveId as (source: string, importer?: string) => string | null;

  it("gives everyone but app-build.ts the app's build instead", () => {
    expect(resolveId(SERVER_BUILD_ID)).toBe(APP_BUILD_ENTRY);
    expect(resolveId(SERVER_BUILD_ID, "/somewhere/else.ts")).toBe(APP_BUILD_ENTRY);
    expect(resolveId(SERVER_BUILD_ID, APP_BUILD_ENTRY)).toBeNull();
    expect(resolveId(`${SERVER_BUILD_ID}-other`)).toBeNull();
  });

  it("runs before the framework's own resolver, and APP_BUILD_ENTRY exists", () => {
    expect((serverBuildEntry() as Plugin).enforce).toBe("pre");
    expect(readFileSync(APP_BUILD_ENTRY, "utf8")).toContain(`from "${SERVER_BUILD_ID}"`);
  });
});
