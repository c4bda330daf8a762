import { describe, expect, it } from "vitest";
import { moveExport, rewriteSource, withoutUpgradeOnly } from "./source-rewrite";

describe("rewriteSource: imports", () => {
  it("splits an import of @remix-run/node by where each export lives now, keeping type-only parts", () => {
    const before = [
      'import type { EntryContext, HandleErrorFunction } from "@remix-run/node";',
      'import { createReadableStreamFromReadable, data } from "@remix-run/node";',
      "",
      "export const x = data(1);",
    ].join("\n");
    expect(rewriteSource("app/entry.server.tsx", before)).toBe(
      [
        'import type { EntryContext, HandleErrorFunction } from "react-router";',
        'import { createReadableStreamFromReadable } from "@react-router/node";',
        'import { data } from "react-router";',
        "",
        "export const x = data(1);",
      ].join("\n"),
    );
  });

  it("renames the two components that changed name, where they are imported and used", () => {
    const before = [
      'import { RemixBrowser } from "@remix-run/react";',
      'import { RemixServer, useLocation } from "@remix-run/react";',
      "const a = <RemixBrowser />;",
      "const b = <RemixServer context={remixContext} url={url} />;",
    ].join("\n");
    expect(rewriteSource("x.tsx", before)).toBe(
      [
        'import { HydratedRouter } from "react-router/dom";',
        'import { ServerRouter, useLocation } from "react-router";',
        "const a = <HydratedRouter />;",
        "const b = <ServerRouter context={routerContext} url={url} />;",
      ].join("\n"),
    );
  });

  it("turns json() and defer() into data(), imported once", () => {
    const before = [
      'import { data, defer, json } from "@remix-run/node";',
      "export const loader = () => json({ a: 1 }, { status: 201 });",
      "export const other = () => defer({ b: Promise.resolve(2) });",
    ].join("\n");
    expect(rewriteSource("x.ts", before)).toBe(
      [
        'import { data } from "react-router";',
        "export const loader = () => data({ a: 1 }, { status: 201 });",
        "export const other = () => data({ b: Promise.resolve(2) });",
      ].join("\n"),
    );
  });

  it("keeps aliases and inline type modifiers", () => {
    const before =
      'import { UNSAFE_ErrorResponseImpl as ErrorResponse, type Location } from "@remix-run/router";';
    expect(rewriteSource("x.ts", before)).toBe(
      'import { UNSAFE_ErrorResponseImpl as ErrorResponse, type Location } from "react-router";',
    );
  });

  it("leaves imports of other packages, and identifiers that only look alike, alone", () => {
    const before = ['import { useEffect } from "react";', 'const label = "RemixServer";'].join("\n");
    expect(rewriteSource("x.ts", before)).toBe(before);
  });

  it("refuses a default or namespace import of a Remix package rather than guess", () => {
    expect(() => rewriteSource("x.ts", 'import * as Remix from "@remix-run/react";')).toThrow(
      /named imports/,
    );
  });
});

describe("rewriteSource: renamed identifiers", () => {
  it("renames a parameter and keeps its type annotation", () => {
    const before = "function handle(remixContext: EntryContext) {\n  return remixContext.url;\n}\n";
    expect(rewriteSource("x.ts", before)).toBe(
      "function handle(routerContext: EntryContext) {\n  return routerContext.url;\n}\n",
    );
  });
});

describe("rewriteSource: names as text", () => {
  it("replaces package names, binaries, browser globals and the virtual server build wherever they appear", () => {
    const before = [
      'const serve = require.resolve("@remix-run/serve/package.json");',
      "expect(output).toContain(`[remix-serve]`);",
      "window.__remixRouter.navigate(path);",
      'import * as build from "virtual:remix/server-build";',
      'vi.mock("@sentry/remix");',
      "// COPY remix.config.js ./",
      'url.includes("/node_modules/@remix-run/server-runtime/")',
    ].join("\n");
    expect(rewriteSource("x.ts", before)).toBe(
      [
        'const serve = require.resolve("@react-router/serve/package.json");',
        "expect(output).toContain(`[react-router-serve]`);",
        "window.__reactRouterDataRouter.navigate(path);",
        'import * as build from "virtual:react-router/server-build";',
        'vi.mock("@sentry/react");',
        "// COPY react-router.config.ts ./",
        'url.includes("/node_modules/react-router/")',
      ].join("\n"),
    );
  });

  it("rewrites configuration files as text only", () => {
    expect(rewriteSource("Dockerfile", 'CMD ["node", "node_modules/@remix-run/serve/dist/cli.js"]')).toBe(
      'CMD ["node", "node_modules/@react-router/serve/dist/cli.js"]',
    );
  });
});

describe("moveExport", () => {
  it("knows the exports of @remix-run/node that moved to @react-router/node", () => {
    expect(moveExport("@remix-run/node", "createReadableStreamFromReadable")?.module).toBe(
      "@react-router/node",
    );
    expect(moveExport("@remix-run/node", "redirect")?.module).toBe("react-router");
    expect(moveExport("react", "useEffect")).toBeUndefined();
  });
});

describe("blocks about the upgrade itself", () => {
  it("are dropped in every kind of file, with their marks", () => {
    const yaml =
      "jobs:\n  test: {}\n  # upgrade-only (npm run init removes this job)\n  upgrade: {}\n  # /upgrade-only\n";
    expect(rewriteSource("ci.yml", yaml)).toBe("jobs:\n  test: {}\n");
    const js = "[a,\n// upgrade-only\nb,\n// /upgrade-only\nc];\n";
    expect(rewriteSource("eslint.config.js", js)).toBe("[a,\nc];\n");
    const md = "A\n<!-- upgrade-only -->\n\nThe upgrade.\n\n<!-- /upgrade-only -->\nB\n";
    expect(withoutUpgradeOnly(md)).toBe("A\nB\n");
  });
});
