import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { newestInRange, updateGroups } from "./groups";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dependabot = readFileSync(path.join(ROOT, ".github/dependabot.yml"), "utf8");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
const byName = (liftHolds = false) =>
  new Map(updateGroups(dependabot, pkg, installed, { liftHolds }).map((group) => [group.name, group]));

describe("the update groups of .github/dependabot.yml, on this package.json", () => {
  it("puts each package in one group at most, and every group moves something", () => {
    const groups = [...byName().values()];
    const names = groups.flatMap((group) => group.specs.map((spec) => spec.slice(0, spec.lastIndexOf("@"))));
    expect(new Set(names).size).toBe(names.length);
    for (const group of groups) expect(group.specs.length, group.name).toBeGreaterThan(0);
  });

  it("moves what must move together in one group", () => {
    const groups = byName();
    expect(groups.get("typescript")!.specs.map((spec) => spec.replace(/@[^@]*$/, ""))).toEqual(
      expect.arrayContaining(["typescript", "typescript-eslint"]),
    );
    expect(groups.get("react")!.specs.map((spec) => spec.replace(/@[^@]*$/, ""))).toEqual(
      expect.arrayContaining(["react", "@types/react"]),
    );
    // The Vite plugin of Sentry's follows Vite, not the SDK's version.
    expect(groups.get("vite")!.specs).toEqual(
      expect.arrayContaining(["@sentry/vite-plugin@latest", "vitest@latest"]),
    );
  });

  it("tries a held-back major at the newest of the installed major, and at latest once holds are lifted", () => {
    const major = installed("typescript").split(".")[0];
    expect(byName().get("typescript")!.specs).toContain(`typescript@^${major}`);
    expect(byName().get("typescript")!.held).toContain("typescript");
    expect(byName(true).get("typescript")!.specs).toContain("typescript@latest");
  });

  it("leaves out an alias pinned on purpose (npm:…)", () => {
    const aliases = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, range]) =>
      range.startsWith("npm:"),
    );
    const specs = [...byName().values()].flatMap((group) => group.specs);
    for (const [name] of aliases)
      expect(
        specs.some((spec) => spec.startsWith(`${name}@`)),
        name,
      ).toBe(false);
  });
});

describe("the version a held-back major is tried at", () => {
  it("is the newest npm lists in the range, one version or many, in any order", () => {
    expect(newestInRange('"8.5.3"')).toBe("8.5.3");
    expect(newestInRange('["8.4.0", "8.10.0", "8.5.1", "8.9.2"]')).toBe("8.10.0");
    expect(newestInRange('["8.0.0", "8.4.0", "8.5.3", "8.5.1"]')).toBe("8.5.3");
    expect(() => newestInRange("[]")).toThrow(/no version/);
  });
});
