import { describe, expect, it } from "vitest";
import { declaredScriptUrls } from "./client-js";

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
