/**
 * The patches of Remix 2's server renderer (patches/@remix-run+react+<version>.patch,
 * patches/react-router-dom+<version>.patch, docs/decisions/0103-the-renderer-s-routes-once-per-build.md):
 * a build's routes for the renderer are made on its first document, not on every one. These
 * tests fail when either patch stops applying, when a document renders other than with Remix's
 * own unpatched renderer (`@remix-run/react-unpatched`), or when an edit to a route module under
 * the dev server would render the old one.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer, useLoaderData, useParams } from "@remix-run/react";
import { RemixServer as UnpatchedRemixServer } from "@remix-run/react-unpatched";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adviseOnFailure, PATCH_ADVICE } from "../test-support/guard-advice";

adviseOnFailure(PATCH_ADVICE);
afterEach(() => vi.restoreAllMocks());

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(path.join(ROOT, "package.json"));
const PATCHED = { "@remix-run/react": "dist/server.js", "react-router-dom": "server.js" } as const;
const MARKER = "[scaffold patch begin]";

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const folderOf = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

type Renderer = typeof RemixServer;

/** A parent page with children, a list and its details with a loader, an index: a product's shapes. */
function buildOf(server: Renderer): ServerBuild {
  const route = (id: string, parentId: string | undefined, fields: object, module: object) => ({
    route: { id, parentId, ...fields },
    module: { id, parentId, ...fields, module },
  });
  const shapes = [
    route("root", undefined, { path: "" }, { default: RootLayout }),
    route("routes/_index", "root", { index: true }, { default: () => createElement("p", null, "home") }),
    route("routes/items", "root", { path: "items" }, { default: ItemList }),
    route(
      "routes/items.$id",
      "routes/items",
      { path: ":id", hasLoader: true },
      { default: ItemPage, loader },
    ),
  ];
  return {
    mode: "production",
    entry: { module: { default: renderWith(server) } },
    routes: Object.fromEntries(shapes.map(({ module }) => [module.id, module])),
    assets: {
      routes: Object.fromEntries(
        shapes.map(({ route }) => [route.id, { ...route, module: `/${route.id}.js` }]),
      ),
      version: "1",
      url: "/manifest.js",
      entry: { module: "/entry.js", imports: [] },
    },
    publicPath: "/",
    assetsBuildDirectory: "public",
    future: { v3_singleFetch: true },
    basename: undefined,
    isSpaMode: false,
  } as unknown as ServerBuild;
}

const loader = ({ params }: { params: { id?: string } }) => ({ name: `item ${params.id}` });
function RootLayout() {
  return createElement("main", null, createElement(Outlet));
}
function ItemList() {
  return createElement("section", null, "items:", createElement(Outlet));
}
function ItemPage() {
  const { name } = useLoaderData<typeof loader>();
  return createElement("h1", null, `${useParams().id}: ${name}`);
}

function renderWith(server: Renderer) {
  return (request: Request, status: number, headers: Headers, context: unknown) => {
    const html = renderToString(createElement(server, { context: context as never, url: request.url }));
    headers.set("Content-Type", "text/html");
    return new Response(`<!DOCTYPE html>${html}`, { status, headers });
  };
}

async function documentOf(handle: (request: Request) => Promise<Response>, url: string): Promise<string> {
  const response = await handle(new Request(`http://localhost${url}`));
  expect(response.status, url).toBe(200);
  return response.text();
}

describe("the patches of Remix 2's server renderer", () => {
  it("are made for the installed versions, the only copies, applied where Node loads them, with unpatched twins", () => {
    const lock = readJson<{ packages: Record<string, unknown> }>(path.join(ROOT, "package-lock.json"));
    const { devDependencies } = readJson<{ devDependencies: Record<string, string> }>(
      path.join(ROOT, "package.json"),
    );
    for (const [name, file] of Object.entries(PATCHED)) {
      const { version } = readJson<{ version: string }>(path.join(folderOf(name), "package.json"));
      const patch = `patches/${name.replace("/", "+")}+${version}.patch`;
      expect(
        readFileSync(path.join(ROOT, patch), "utf8"),
        `${name} changed version: review ${patch}`,
      ).toContain(MARKER);
      const copies = Object.keys(lock.packages).filter((key) => key.endsWith(`node_modules/${name}`));
      expect(copies, `a second copy of ${name}: dedupe it or patch it too`).toEqual([`node_modules/${name}`]);
      expect(readFileSync(path.join(folderOf(name), file), "utf8"), `${name}/${file}`).toContain(MARKER);
      expect(devDependencies[`${name}-unpatched`]).toBe(`npm:${name}@${version}`);
      const twin = readFileSync(path.join(folderOf(`${name}-unpatched`), file), "utf8");
      expect(twin, `${name}-unpatched/${file}`).not.toContain(MARKER);
    }
  });

  it("renders every document as Remix's unpatched renderer does, making the build's routes once", async () => {
    const routes = vi.spyOn(
      require("@remix-run/react/dist/routes.js") as object as { createServerRoutes: () => unknown },
      "createServerRoutes",
    );
    const converted = vi.spyOn(
      require("@remix-run/router") as object as { UNSAFE_convertRoutesToDataRoutes: () => unknown },
      "UNSAFE_convertRoutesToDataRoutes",
    );
    const patched = createRequestHandler(buildOf(RemixServer), "production");
    const unpatched = createRequestHandler(buildOf(UnpatchedRemixServer as Renderer), "production");
    const urls = ["/items/1", "/", "/items/2", "/items/1"];
    const pages: string[] = [];
    for (const url of urls) pages.push(await documentOf(patched, url));
    expect([routes.mock.calls.length, converted.mock.calls.length]).toEqual([1, 1]);
    for (const [i, url] of urls.entries()) expect(pages[i], url).toBe(await documentOf(unpatched, url));
    expect(pages[0]).toContain("1: item 1");
    expect(pages[2]).toContain("2: item 2");
    // The unpatched renderer made them for each of its documents.
    expect([routes.mock.calls.length, converted.mock.calls.length]).toEqual([1, 1 + urls.length]);
  });

  it("renders a route module replaced in the same build (the dev server's edit) with the new one", async () => {
    const build = buildOf(RemixServer);
    const handle = createRequestHandler(() => build, "production");
    expect(await documentOf(handle, "/items/3")).toContain("3: item 3");
    const edited = build.routes["routes/items.$id"]!;
    edited.module = { ...edited.module, default: () => createElement("h1", null, "edited") };
    const page = await documentOf(handle, "/items/3");
    expect(page).toContain("edited");
    expect(page).not.toContain("item 3");
  });
});
