import { describe, expect, it } from "vitest";
import {
  declareUpgradedTreeNames,
  isRemoved,
  parseArgs,
  removedPrefixes,
  removedScripts,
  rewrite,
  type RewriteContext,
} from "./init-plan";

describe("parseArgs", () => {
  it("takes the name and the two switches", () => {
    expect(parseArgs(["--name", "shop", "--keep-upgrade"])).toEqual({
      name: "shop",
      keepUpgrade: true,
      allowDirty: false,
    });
    expect(parseArgs(["--name=shop-2", "--allow-dirty"])).toMatchObject({ name: "shop-2", allowDirty: true });
  });

  it("asks for a name that fits a package, an image and a Kubernetes label, and nothing else", () => {
    expect(parseArgs([])).toEqual({ error: expect.stringMatching(/^usage: npm run init -- --name/) });
    for (const name of ["Shop", "-shop", "shop-", "@team/shop", "a".repeat(64), "shop app"])
      expect(parseArgs(["--name", name])).toHaveProperty("error");
    expect(parseArgs(["--name", "shop", "--force"])).toEqual({ error: expect.stringContaining("--force") });
  });
});

describe("what goes", () => {
  it("removes the benchmark, our CI machine, init itself and, unless kept, the upgrade", () => {
    const prefixes = removedPrefixes({ keepUpgrade: false });
    for (const file of [
      "bench/run.ts",
      ".github/workflows/bench-goals.yml",
      ".ci/run",
      "scripts/init.ts",
      "docs/upgrading-to-react-router-8.md",
    ])
      expect(isRemoved(file, prefixes), file).toBe(true);
    for (const file of [
      "scripts/run-tests.mjs",
      "e2e/toolchain/client-js-budget.ts",
      "docs/decisions/0061-the-way-off-remix-2.md",
    ])
      expect(isRemoved(file, prefixes), file).toBe(false);
    const kept = removedPrefixes({ keepUpgrade: true });
    expect(isRemoved("scripts/upgrade-react-router/run.ts", kept)).toBe(false);
    expect(isRemoved("scripts/copied-tree.ts", prefixes)).toBe(true);
    expect(isRemoved("scripts/copied-tree.ts", kept)).toBe(false);
    expect(isRemoved("scripts/upgrade-react-router/react-router-8/bench/baseline/serve.ts", kept)).toBe(true);
  });

  it("removes the npm scripts of what goes", () => {
    const scripts = ["build", "build:e2e", "bench", "benchmark", "init", "test:upgrade"];
    expect(removedScripts(scripts, { keepUpgrade: false })).toEqual(["bench", "init", "test:upgrade"]);
    expect(removedScripts(scripts, { keepUpgrade: true })).not.toContain("test:upgrade");
  });
});

describe("rewrite", () => {
  const context = (keepUpgrade = false): RewriteContext => ({
    name: "shop",
    keepUpgrade,
    prefixes: removedPrefixes({ keepUpgrade }),
    scripts: ["bench", "init", "upgrade:react-router"],
    topLevel: new Set(["app", "docs", "scripts"]),
  });

  it("drops scaffold-only blocks, and upgrade-only ones unless the upgrade stays", () => {
    const text = [
      "a",
      "<!-- scaffold-only -->",
      "init here",
      "<!-- /scaffold-only -->",
      "  # upgrade-only (why)",
      "  job: upgrade",
      "  # /upgrade-only",
      "b",
      "",
    ].join("\n");
    expect(rewrite("x.md", text, context())).toBe("a\nb\n");
    expect(rewrite("x.md", text, context(true))).toBe("a\n  job: upgrade\nb\n");
  });

  it("points at the measurements' new page, relative to each file", () => {
    expect(rewrite("docs/decisions/0001.md", "[b](../../bench/README.md#route-count)", context())).toBe(
      "[b](../scaffold-measurements.md#route-count)",
    );
    expect(rewrite("README.md", "[b](bench/README.md)", context())).toBe(
      "[b](docs/scaffold-measurements.md)",
    );
    expect(rewrite("app/a.ts", '// the figures: bench/README.md, "Start-up"', context())).toBe(
      '// the figures: docs/scaffold-measurements.md, "Start-up"',
    );
  });

  it("drops a table row whose first cell links a page that went, and unlinks other links to it", () => {
    const table =
      "| [Testing](docs/testing.md) | t |\n| [Upgrading](docs/upgrading-to-react-router-8.md) | u |\n";
    expect(rewrite("README.md", table, context())).toBe("| [Testing](docs/testing.md) | t |\n");
    expect(rewrite("docs/a.md", "see [the upgrade](upgrading-to-react-router-8.md#x).", context())).toBe(
      "see the upgrade.",
    );
    expect(rewrite("docs/a.md", "see [the upgrade](upgrading-to-react-router-8.md).", context(true))).toBe(
      "see [the upgrade](upgrading-to-react-router-8.md).",
    );
  });

  it("names a removed npm script as the scaffold's, in code spans and prose, and no other", () => {
    expect(
      rewrite("a.md", "Run `npm run bench -- --routes 300` or npm run bench -- profile.", context()),
    ).toBe("Run the scaffold's `bench -- --routes 300` script or the scaffold's bench -- profile script.");
    expect(rewrite("a.md", "`npm run build` and npm run benchmarks", context())).toBe(
      "`npm run build` and npm run benchmarks",
    );
  });

  it("names a path under a top-level folder that goes as the scaffold's; the folder's name alone is a word", () => {
    const before: RewriteContext = { ...context(), topLevel: new Set(["app", "bench", ".ci", "scripts"]) };
    expect(
      rewrite("app/a.tsx", "// built by the bench's baseline (bench/baseline), as .ci/run does\n", before),
    ).toBe("// built by the bench's baseline (scaffold:bench/baseline), as scaffold:.ci/run does\n");
    expect(rewrite("a.md", "a bench, `bench/` and `build-bench/`", before)).toBe(
      "a bench, `scaffold:bench/` and `build-bench/`",
    );
  });

  it("names a removed path under a folder that stays as the scaffold's, in prose and comments, not in code", () => {
    expect(rewrite("a.md", "`scripts/upgrade-react-router/run.ts` and `bench/run.ts`", context())).toBe(
      "`scaffold:scripts/upgrade-react-router/run.ts` and `bench/run.ts`",
    );
    expect(
      rewrite(
        "a.md",
        "`git checkout 518406c -- scripts/upgrade-react-router`, not scripts/upgrade-react-router-x",
        context(),
      ),
    ).toBe(
      "`git checkout 518406c -- scaffold:scripts/upgrade-react-router`, not scripts/upgrade-react-router-x",
    );
    const code = '// see docs/day-one.md\nconst ignored = ["scripts/upgrade-react-router/"];\n';
    expect(rewrite("a.ts", code, context())).toBe(
      '// see scaffold:docs/day-one.md\nconst ignored = ["scripts/upgrade-react-router/"];\n',
    );
  });

  it("gives the app its name where the scaffold's was", () => {
    expect(rewrite("README.md", "# Remix + Sentry scaffold\n", context())).toBe("# shop\n");
    expect(rewrite("k.yaml", "image: remix-sentry-scaffold\n", context())).toBe("image: shop\n");
  });
});

describe("the upgraded tree's files a page of history names", () => {
  const options = {
    topLevel: new Set(["server", "docs", "app"]),
    upgradedTree: ["server/app-server.ts", "server/adapter/README.md", "server.mjs"],
    exists: (name: string) => name === "server/boot.ts",
  };

  it("are listed on the page once the upgrade is gone, and only they", () => {
    const page =
      "# 0067 x\n\n`server/app-server.ts` and `server/boot.ts`, `server/adapter/`, `app/gone.ts`\n";
    expect(declareUpgradedTreeNames("docs/decisions/0067-x.md", page, options)).toBe(
      `${page}\n<!-- check-repo-paths: removed with the upgrade: server/adapter/ server/app-server.ts -->\n`,
    );
  });

  it("leave other pages, and pages that name none, as they are", () => {
    const named = "`server/app-server.ts`\n";
    expect(declareUpgradedTreeNames("docs/operating.md", named, options)).toBe(named);
    const none = "# 0001 x\n\n`server/boot.ts`\n";
    expect(declareUpgradedTreeNames("docs/decisions/0001-x.md", none, options)).toBe(none);
    expect(
      declareUpgradedTreeNames("docs/decisions/0067-x.md", named, { ...options, upgradedTree: [] }),
    ).toBe(named);
  });
});
