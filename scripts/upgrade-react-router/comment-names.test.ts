import { describe, expect, it } from "vitest";
import { reactRouterInComments, RUNTIME_FILE } from "./comment-names";

describe("the framework's name in the runtime files' comments", () => {
  it("says React Router in comments, and leaves Remix 2, names and strings alone", () => {
    const source = [
      "// Remix catches this; Remix's copy of the body; on Remix 2, remix-serve did.",
      '/** The Remix action span. */ const title = "Remix + Sentry scaffold";',
    ].join("\n");
    expect(reactRouterInComments("app/x.ts", source)).toBe(
      [
        "// React Router catches this; React Router's copy of the body; on Remix 2, remix-serve did.",
        '/** The React Router action span. */ const title = "Remix + Sentry scaffold";',
      ].join("\n"),
    );
  });

  it("applies to the app's and the server's source only", () => {
    for (const file of ["app/entry.server.tsx", "server/pre-app/manifest-guard.ts", "server.mjs"])
      expect(RUNTIME_FILE.test(file), file).toBe(true);
    for (const file of ["e2e/errors/error-pages.spec.ts", "docs/sentry.md", "app/site.css"])
      expect(RUNTIME_FILE.test(file), file).toBe(false);
  });
});
