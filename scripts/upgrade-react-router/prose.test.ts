import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  PASSAGES,
  PROSE_FILES,
  proseFiles,
  REMIX_NAME_IN_PROSE,
  rewriteProse,
  SUPERSEDED,
  SUPERSEDED_BY_OTHERS,
  PARTLY_SUPERSEDED,
  supersede,
  supersedeInIndex,
} from "./prose";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
/** What names Remix 2's packages (the upgrade's own check adds these to the prose names). */
const REMIX_PACKAGE = /@remix-run\/(?!node-fetch-server)/;

describe("rewriteProse, on this project's README and docs", () => {
  it("leaves no name of Remix 2's packages, server or config in them", () => {
    const files = proseFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/sentry.md", "docs/adding-a-route.md"]));
    for (const file of files) {
      const text = rewriteProse(read(file));
      expect(text, file).not.toMatch(REMIX_NAME_IN_PROSE);
      expect(text, file).not.toMatch(REMIX_PACKAGE);
      // The bare app is React Router's there, and Sentry's documented setup (target E) is Remix 2's.
      expect(text, file).not.toMatch(/bare Remix|documented setup|set up as Sentry's guide/);
    }
  });

  it("keeps `@remix-run/node-fetch-server`, which is React Router's, while `@remix-run/node` moves", () => {
    expect(rewriteProse("`@remix-run/node-fetch-server` and `@remix-run/node`")).toBe(
      "`@remix-run/node-fetch-server` and `@react-router/node`",
    );
  });

  it("finds every passage it rewrites (a passage that no longer matches would rewrite nothing)", () => {
    const prose = proseFiles(ROOT).map(read).join("\n");
    for (const [from] of PASSAGES) expect(prose, from).toContain(from);
  });

  it("replaces the two Sentry majors with one, and rewrites code examples as code", () => {
    const sentry = rewriteProse(read("docs/sentry.md"));
    expect(sentry).toMatch(/^- \*\*One SDK major\*\*/m);
    expect(sentry).not.toMatch(/10\.75\.2|Two SDK majors/);
    const example = rewriteProse('```tsx\nimport { json } from "@remix-run/node";\njson(1);\n```\n');
    expect(example).toBe('```tsx\nimport { data } from "react-router";\ndata(1);\n```\n');
  });

  it("drops the lines about files the upgrade removes", () => {
    expect(read("server/adapter/README.md")).toMatch(/^\| `remix\.d\.ts`/m);
    expect(rewriteProse(read("server/adapter/README.md"))).not.toMatch(/remix\.d\.ts|@remix-run\+router/);
    expect(rewriteProse(read("README.md"))).not.toMatch(/upgrade-react-router|Remix plugin/m);
  });

  it("drops patches/ and points the route-matching passage at React Router's own (docs/decisions/0071)", () => {
    expect(read("README.md")).toMatch(/^patches\/ +patch-package /m);
    expect(rewriteProse(read("README.md"))).not.toMatch(/patches\/|patch-package/);
    const performance = rewriteProse(read("docs/performance.md"));
    expect(performance).toContain("docs/decisions/0071-react-router-8-runs-its-own-matching.md");
    expect(performance).not.toMatch(/0030|0068|is patched/);
  });

  it("leaves decision records and the upgrade doc alone", () => {
    for (const file of ["docs/decisions/0061-the-way-off-remix-2.md", "docs/upgrading-to-react-router-8.md"])
      expect(PROSE_FILES.test(file)).toBe(false);
  });
});

describe("supersede", () => {
  it("marks each overturned decision record, whose status paragraph it replaces", () => {
    for (const [file, reason] of Object.entries(SUPERSEDED)) {
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
      const marked = supersede(read(file), reason);
      expect(marked).toMatch(
        /^Status: Superseded by 0065 in this tree, upgraded to React Router 8: .+\.\n\n/m,
      );
      expect(marked.match(/^Status:/gm)).toHaveLength(1);
    }
    for (const [file, { by, reason }] of Object.entries(SUPERSEDED_BY_OTHERS)) {
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
      expect(supersede(read(file), reason, by)).toMatch(
        new RegExp(`^Status: Superseded by ${by} in this tree, upgraded to React Router 8: .+\\.\n\n`, "m"),
      );
    }
  });

  it("sets their status in the decision index to match, and no other row's", () => {
    const before = read("docs/decisions/README.md");
    const after = supersedeInIndex(before);
    const rows = (text: string) => text.split("\n").filter((line) => /^\| \[\d{4}\]/.test(line));
    const changed = rows(after).filter((row, i) => row !== rows(before)[i]);
    expect(changed).toHaveLength(
      Object.keys(SUPERSEDED).length +
        Object.keys(SUPERSEDED_BY_OTHERS).length +
        Object.keys(PARTLY_SUPERSEDED).length,
    );
    const statusOf = (file: string) =>
      rows(after)
        .find((row) => row.includes(`(${path.basename(file)})`))!
        .split("|")[3]!
        .trim();
    for (const file of Object.keys(SUPERSEDED)) expect(statusOf(file)).toBe("Superseded by 0065");
    for (const [file, { by }] of Object.entries(SUPERSEDED_BY_OTHERS))
      expect(statusOf(file)).toBe(`Superseded by ${by}`);
    for (const [file, { by }] of Object.entries(PARTLY_SUPERSEDED))
      expect(statusOf(file)).toBe(`Partly superseded by ${by}`);
  });
});
