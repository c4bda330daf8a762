/**
 * The patch of @sentry/opentelemetry (patches/@sentry+opentelemetry+<version>.patch,
 * docs/decisions/0032-one-sampling-decision.md) is made for one exact version:
 * these checks fail when an upgrade changes the installed version, leaves a
 * build unpatched, or lets a second copy into node_modules, so the patch is
 * looked at again instead of silently not applying. What it does is proven
 * end to end by e2e/sentry-sampling.spec.ts (a rate of 0.5 traces half of the
 * new traces, not a quarter).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(path.join(ROOT, "package.json"));
const MARKER = "[scaffold patch]";
const NAME = "@sentry/opentelemetry";

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const packageDir = path.dirname(require.resolve(`${NAME}/package.json`));

function patchedVersion(): string | undefined {
  for (const file of readdirSync(path.join(ROOT, "patches"))) {
    const match = /^@sentry\+opentelemetry\+(\d+\.\d+\.\d+[^+]*)\.patch$/.exec(file);
    if (match) return match[1];
  }
  return undefined;
}

describe("the @sentry/opentelemetry patch", () => {
  it("is made for the installed version, the one @sentry/node and @sentry/core are at", () => {
    const version = patchedVersion();
    expect(version, "patches/@sentry+opentelemetry+<version>.patch").toBeDefined();
    const installed = readJson<{ version: string }>(path.join(packageDir, "package.json")).version;
    expect(
      installed,
      "@sentry/opentelemetry changed version: check whether the SDK now decides a new trace by the number " +
        "the app froze (docs/decisions/0032, 'When to revisit'); if not, recreate the patch with " +
        "`npx patch-package @sentry/opentelemetry`",
    ).toBe(version);
    for (const sibling of ["@sentry/node", "@sentry/core"]) {
      expect(readJson<{ version: string }>(require.resolve(`${sibling}/package.json`)).version, sibling).toBe(
        version,
      );
    }
  });

  it("is applied to both builds, where the tracer starts a new trace and continues a remote one", () => {
    for (const build of ["build/esm", "build/cjs"]) {
      const files = readdirSync(path.join(packageDir, build)).filter((file) => file.endsWith(".js"));
      const patched = files.filter((file) =>
        readFileSync(path.join(packageDir, build, file), "utf8").includes(MARKER),
      );
      expect(patched, build).toHaveLength(1);
      const source = readFileSync(path.join(packageDir, build, patched[0]!), "utf8");
      expect(source.split(MARKER).length - 1, `${build}: both places`).toBe(2);
    }
  });

  it("is the only copy: @sentry/node and @sentry/node-core resolve the patched one", () => {
    const lock = readJson<{ packages: Record<string, unknown> }>(path.join(ROOT, "package-lock.json"));
    const copies = Object.keys(lock.packages).filter((key) => key.endsWith(`node_modules/${NAME}`));
    expect(copies, `a second copy of ${NAME}: dedupe it or patch it too`).toEqual([`node_modules/${NAME}`]);
    for (const user of ["@sentry/node", "@sentry/node-core"]) {
      const from = createRequire(path.join(ROOT, "node_modules", user, "package.json"));
      expect(path.dirname(from.resolve(`${NAME}/package.json`)), user).toBe(packageDir);
    }
  });
});
