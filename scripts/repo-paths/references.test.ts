import { describe, expect, it } from "vitest";
import { hashComments, markdownCode, pathsIn, referencesIn, scriptComments, scriptsIn } from "./references";

const TOP = new Set(["app", "server", "docs", "e2e"]);

describe("what counts as a repository path", () => {
  it("takes paths under the tree's own top-level folders, with a line number or a trailing slash", () => {
    expect(pathsIn("see server/remix-handler.ts:12, app/routes/ and docs/decisions/0058.", TOP)).toEqual([
      "server/remix-handler.ts",
      "app/routes/",
      "docs/decisions/0058",
    ]);
  });

  it("leaves other machines' paths, packages, globs, templates, URLs and other repositories alone", () => {
    const text =
      "/app/build/x.js build/server/index.js @sentry/remix/build/x.js app/**/*.test.ts " +
      "app/routes/${name}.tsx e2e/<name>.spec.ts https://example.com/app/x.ts getsentry/docs:docs/x.mdx";
    expect(pathsIn(text, TOP)).toEqual([]);
  });

  it("reads `npm run` scripts, with or without flags and arguments", () => {
    expect(scriptsIn("npm run lint:docs; npm run --silent test:e2e -- --core; `npm run` alone")).toEqual([
      "lint:docs",
      "test:e2e",
    ]);
  });
});

describe("where references are read", () => {
  it("Markdown: code spans and fenced blocks, not links or prose", () => {
    const markdown = "A [link](server/a.ts), server/b.ts, `server/c.ts`.\n\n```sh\nnode server/d.ts\n```\n";
    expect(markdownCode(markdown)).toEqual([
      { text: "server/c.ts", line: 1 },
      { text: "node server/d.ts", line: 4 },
    ]);
  });

  it("scripts: comments only, never strings, template literals or regular expressions", () => {
    const source = [
      'const a = "server/a.ts"; // server/b.ts',
      "const b = `// server/c.ts`, c = /\\/\\/ server\\/d.ts/;",
      "/** server/e.ts */ const d = 1 / 2; // server/f.ts",
      "const e = `http://${host}:${{ a: 1 }.a}//server/g.ts`; // server/h.ts",
    ].join("\n");
    expect(scriptComments(source, "x.ts").map(({ text, line }) => [text, line])).toEqual([
      ["// server/b.ts", 1],
      ["/** server/e.ts */", 3],
      ["// server/f.ts", 3],
      ["// server/h.ts", 4],
    ]);
  });

  it("shell, YAML and Dockerfiles: # comments, not shebangs or ${#array}", () => {
    expect(hashComments("#!/bin/sh\n# server/a.ts\nx=${#y[@]} # server/b.ts\n").map((c) => c.text)).toEqual([
      " server/a.ts",
      " server/b.ts",
    ]);
  });

  it("Markdown prose counts for npm scripts; files of other kinds are not read", () => {
    expect(referencesIn("docs/x.md", "Run npm run nope.\n\n`server/gone.ts`\n", TOP)).toEqual([
      { kind: "path", name: "server/gone.ts", line: 3 },
      { kind: "script", name: "nope", line: 1 },
    ]);
    expect(referencesIn("data.json", '{"a": "server/gone.ts"}', TOP)).toEqual([]);
  });
});
