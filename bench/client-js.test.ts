import { describe, expect, it } from "vitest";
import { BUDGET, budgetChecks, declaredScriptUrls, type VariantResult } from "./client-js";

describe("declaredScriptUrls", () => {
  it("finds script src, modulepreload links and the imports of inline module scripts, once each, in order", () => {
    const html = `<!DOCTYPE html><html><head>
      <link rel="stylesheet" href="/assets/app.css"/>
      <script src='/assets/legacy.js' defer></script>
      </head><body>
      <script>window.ENV = {"a":"import('/not-a-module.js')"};</script>
      <link rel="modulepreload" href="/assets/entry.client-A.js"/>
      <link href="/assets/components-B.js" rel="modulepreload"/>
      <script type="module" async="">;
      import * as route0 from "/assets/root-C.js";
      import "/assets/side-effect.js";
      window.__remixRouteModules = {"root":route0};
      import("/assets/entry.client-A.js");</script>
      </body></html>`;
    expect(declaredScriptUrls(html)).toEqual([
      "/assets/legacy.js",
      "/assets/entry.client-A.js",
      "/assets/components-B.js",
      "/assets/root-C.js",
      "/assets/side-effect.js",
    ]);
  });
});

describe("budgetChecks", () => {
  const variant = (id: VariantResult["id"], gzip: number, files: string[] = []): VariantResult => {
    const set = { files: files.map((path) => ({ path, raw: 0, gzip: 0, sentry: false })), raw: 0, gzip };
    return {
      id,
      name: id,
      declared: set,
      initial: set,
      afterHydration: { files: [], raw: 0, gzip: 0 },
      other: [],
    };
  };

  it("compares Sentry off and on with the baseline, and feedback with Sentry on", () => {
    // At the limit is met, one byte over is not (the limits depend on the framework: BUDGET).
    const on = 80_000 + BUDGET.sentryOn + 1;
    const checks = budgetChecks([
      variant("baseline", 80_000),
      variant("off", 80_000 + BUDGET.sentryOff),
      variant("on", on),
      variant("feedback", on),
    ]);
    expect(checks.map(({ what, measured, met }) => ({ what, measured, met }))).toEqual([
      { what: "Sentry off − baseline", measured: BUDGET.sentryOff, met: true },
      { what: "Sentry on − baseline", measured: BUDGET.sentryOn + 1, met: false },
      { what: "feedback on − Sentry on", measured: 0, met: true },
    ]);
  });
});
