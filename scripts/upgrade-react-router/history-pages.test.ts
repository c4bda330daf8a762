import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { topLevelFolders } from "../repo-paths/check-tree";
import { declareRemoved, HISTORY_PAGES, removedNamesIn } from "./history-pages";

const ROOT = path.resolve(import.meta.dirname, "../..");
const topLevel = topLevelFolders(ROOT);
const removed = {
  paths: ["scripts/upgrade-react-router", "server/adapter/http-server.ts"],
  scripts: ["upgrade:react-router", "test:upgrade"],
};

describe("the removed names a page of history declares", () => {
  it("are those it names of what the upgrade removes, and only those", () => {
    const record = "docs/decisions/0061-the-way-off-remix-2.md";
    const names = removedNamesIn(record, readFileSync(path.join(ROOT, record), "utf8"), topLevel, removed);
    expect(names).toEqual(["scripts/upgrade-react-router", "test:upgrade", "upgrade:react-router"]);
  });

  it("go on one line at the end of the page, which is otherwise unchanged; a page naming none is left alone", () => {
    const page = "# 0099 x\n\n`server/adapter/http-server.ts` and `server/boot.ts`, npm run test:upgrade\n";
    expect(declareRemoved("docs/decisions/0099-x.md", page, topLevel, removed)).toBe(
      `${page}\n<!-- check-repo-paths: removed by the upgrade: server/adapter/http-server.ts test:upgrade -->\n`,
    );
    expect(declareRemoved("docs/decisions/0099-x.md", "`server/boot.ts`\n", topLevel, removed)).toBe(
      "`server/boot.ts`\n",
    );
  });

  it("are written on the pages of history only: records, the upgrade's page, the benchmark's record", () => {
    const pages = [
      "docs/decisions/0050-wrap-remix-serve.md",
      "docs/upgrading-to-react-router-8.md",
      "bench/README.md",
    ];
    for (const page of pages) expect(HISTORY_PAGES.test(page), page).toBe(true);
    for (const page of ["docs/testing.md", "README.md", "server/adapter/README.md"])
      expect(HISTORY_PAGES.test(page), page).toBe(false);
  });
});
