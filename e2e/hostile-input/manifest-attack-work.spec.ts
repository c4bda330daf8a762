/**
 * GHSA-chx6-hx7r-mcp5: a /__manifest request of thousands of path segments
 * makes the framework match every prefix of each path (Remix 2) or each path
 * once (React Router), thousands of matches of thousands of segments. The work
 * is counted, not timed: the production server runs with a probe preloaded
 * (support/route-matching-probe.mjs) that records the segments of each path
 * the framework's own server-side matching is called with. Whatever the
 * attack's length, that is at most the route table's depth plus one paths of
 * at most as many segments (server/pre-app/manifest-guard.ts cuts each path
 * there). What such a request cost before the guard: SECURITY.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { FRAMEWORK } from "../../test-support/framework";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // its own app, probed

const PROBE = "./e2e/support/route-matching-probe.mjs";
/** Remix's own limit on a manifest URL, which both the guard and the framework refuse above. */
const URL_LIMIT = 7680;
/** The framework's form of a discovery request: Remix's `p` per path, React Router's one comma-separated `paths`. */
const KEY = FRAMEWORK === "remix-2" ? "p" : "paths";
const query = (paths: string[]) =>
  KEY === "p" ? paths.map((each) => `p=${each}`).join("&") : `paths=${paths.join(",")}`;

interface Manifest {
  version: string;
  routes: Record<string, { path?: string; parentId?: string }>;
}

/** The browser's manifest every page links (`window.__remixManifest`): the version the endpoint checks, and the routes. */
async function manifestOf(baseURL: string): Promise<Manifest> {
  const html = await (await fetch(`${baseURL}/fixtures/items/1`)).text();
  const script = /\/assets\/manifest-[^"]+\.js/.exec(html)![0];
  const source = await (await fetch(`${baseURL}${script}`)).text();
  expect(source.startsWith("window.__remixManifest=")).toBe(true);
  return JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "")) as Manifest;
}

/** Segments of the deepest route's full path: nothing deeper can match but a splat. */
function depthOf({ routes }: Manifest): number {
  const segments = (route?: { path?: string; parentId?: string }): number =>
    route ? (route.path ?? "").split("/").filter(Boolean).length + segments(routes[route.parentId!]) : 0;
  return Math.max(...Object.values(routes).map((route) => segments(route)));
}

let app: AppServer;
let dir: string;
const file = () => path.join(dir, "matched");
/** The segments of each path the framework matched, in order, so far. */
const matchedSoFar = () => readFileSync(file(), "utf8").split("\n").filter(Boolean).map(Number);

/** Sends one request, alone, and returns its status and the paths the framework matched for it. */
async function send(target: string) {
  const before = matchedSoFar().length;
  const response = await fetch(`${app.url}${target}`);
  await response.arrayBuffer();
  return { status: response.status, matched: matchedSoFar().slice(before) };
}

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  dir = mkdtempSync(path.join(tmpdir(), "route-matching-"));
  app = await startApp({ env: { ROUTE_MATCHING_FILE: file() }, preload: [PROBE] });
});

test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a deep /__manifest attack makes the framework match no more, nor longer, paths than the route table is deep", async () => {
  const manifest = await manifestOf(app.url);
  const depth = depthOf(manifest);
  expect(depth).toBeGreaterThan(0);
  const manifestQuery = (paths: string[]) => `/__manifest?version=${manifest.version}&${query(paths)}`;

  // The probe sees the framework's matching, of a long path too (a page request is not bounded).
  const real = await send(manifestQuery(["/fixtures/items/3"]));
  expect(real.status).toBe(200);
  expect(real.matched.length).toBeGreaterThan(0);
  expect((await send(`${"/a".repeat(500)}`)).matched).toContain(500);

  // The advisory's: one path of many segments; and nested paths, each a path of its own, as many as fit.
  const nested = (count: number) => Array.from({ length: count }, (_, i) => "/a".repeat(i + 1));
  let fit = 1;
  while (manifestQuery(nested(fit + 1)).length < URL_LIMIT - 100) fit++;
  const shapes = {
    "one deep path": [50, 500, 3700].map((segments) => ["/a".repeat(segments)]),
    "nested paths": [10, fit].map(nested),
  };
  for (const [shape, attacks] of Object.entries(shapes)) {
    const work: string[] = [];
    for (const paths of attacks) {
      const name = `${shape}: ${paths.length} path(s), ${paths.at(-1)!.length / 2} segments`;
      const { status, matched } = await send(manifestQuery(paths));
      expect(status, name).toBe(200);
      expect(matched.length, name).toBeGreaterThan(0);
      expect(matched.length, name).toBeLessThanOrEqual(depth + 1);
      expect(Math.max(...matched), name).toBeLessThanOrEqual(depth + 1);
      work.push(matched.join());
    }
    // Whatever the attack's length, the same work: its paths cut at the route table's depth plus one.
    expect(new Set(work).size, shape).toBe(1);
  }

  // Longer than the limit: refused before any matching.
  const over = await send(manifestQuery(["/a".repeat(URL_LIMIT / 2 + 1)]));
  expect([over.status, over.matched]).toEqual([400, []]);
});
