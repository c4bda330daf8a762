/**
 * What the browser's navigation and fetcher spans start from, on a real router of React Router's
 * created with the instrumentations as `HydratedRouter` creates it: each starts before any loader
 * or action of it runs (so before their request is sent), and ends once the router is done with it.
 */
import { createMemoryRouter, createPath, type RouteObject } from "react-router";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { onRouterOperations, routerInstrumentation } from "./router-operations.client";

const log: string[] = [];
let page = new URL("http://localhost/list");
let release = () => {};

const load = (name: string) => async () => {
  log.push(`loader ${name}`);
  if (name === "slow") await new Promise<void>((resolve) => (release = resolve));
  return null;
};
const redirect = (entry: string, to: string) => () => {
  log.push(entry);
  return new Response(null, { status: 302, headers: { Location: to } });
};
const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "list", path: "list", loader: load("list") },
      { id: "item", path: "list/:id", loader: load("item") },
      { id: "edit", path: "list/:id/edit", loader: load("edit"), action: redirect("action edit", "/list/7") },
      { id: "old", path: "old", loader: redirect("loader old", "/list") },
      { id: "slow", path: "slow", loader: load("slow") },
      { id: "static", path: "static" },
    ],
  },
];

/** The browser's window, as far as the instrumentation reads it: its location and its history's events. */
function stubWindow(): void {
  vi.stubGlobal("window", Object.defineProperty(new EventTarget(), "location", { get: () => page }));
}

/** Created as `HydratedRouter` creates its router; the location shown follows it, as the browser's does. */
function instrumentedRouter() {
  const router = createMemoryRouter(routes, {
    initialEntries: ["/list"],
    hydrationData: { loaderData: { root: null, list: null } },
    instrumentations: [routerInstrumentation()],
  });
  router.subscribe(({ location }) => (page = new URL(createPath(location), page)));
  return router;
}

function mountRouter() {
  stubWindow();
  const router = instrumentedRouter();
  onRouterOperations({
    navigation: (target) => {
      log.push(`navigation ${target.pathname}${target.hash}`);
      return (failed) => log.push(`ended on ${router.state.location.pathname}${failed ? ", failed" : ""}`);
    },
    fetch: (target) => {
      log.push(`fetch ${target.pathname}`);
      return () => log.push("fetched");
    },
  });
  return router;
}

beforeEach(() => {
  log.length = 0;
  page = new URL("http://localhost/list");
});
afterEach(() => vi.unstubAllGlobals());

it("starts each navigation before its loaders run, and ends it where it lands", async () => {
  const router = mountRouter();
  await router.navigate("/list/7");
  expect(log).toEqual(["navigation /list/7", "loader item", "ended on /list/7"]);
});

it("keeps a redirect in its navigation, which ends on the redirect's target", async () => {
  const router = mountRouter();
  await router.navigate("/old");
  expect(log).toEqual(["navigation /old", "loader old", "loader list", "ended on /list"]);
});

it("keeps a form's action, its redirect and the reload in one navigation", async () => {
  const router = mountRouter();
  const formData = new FormData();
  formData.set("note", "hello");
  await router.navigate("/list/7/edit", { formMethod: "post", formData });
  expect(log).toEqual(["navigation /list/7/edit", "action edit", "loader item", "ended on /list/7"]);
});

it("starts a new navigation when one replaces another in flight", async () => {
  const router = mountRouter();
  const slow = router.navigate("/slow");
  await vi.waitFor(() => expect(log).toContain("loader slow"));
  await router.navigate("/list/7");
  release();
  await slow;
  expect(log.slice(0, 5)).toEqual([
    "navigation /slow",
    "loader slow",
    "navigation /list/7",
    "loader item",
    "ended on /list/7",
  ]);
});

it("starts back and forward from the history's event, and no navigation for a change of hash", async () => {
  const router = mountRouter();
  await router.navigate("/list#part");
  expect(log).toEqual([]);
  await router.navigate("/static");
  log.length = 0;
  // The browser moves back, then tells its listeners: this one first, then the router's, which goes too.
  page = new URL("http://localhost/list#part");
  window.dispatchEvent(new Event("popstate"));
  await router.navigate(-1);
  page = new URL("http://localhost/list#other");
  window.dispatchEvent(new Event("popstate"));
  expect(log).toEqual(["navigation /list#part", "loader list"]);
});

it("starts a fetcher's call before its loader runs, and ends it with the call", async () => {
  const router = mountRouter();
  await router.fetch("key", "list", "/list/7");
  await vi.waitFor(() => expect(log).toEqual(["fetch /list/7", "loader item", "fetched"]));
});

it("passes the calls through untouched until tracing listens", async () => {
  stubWindow();
  const router = instrumentedRouter();
  onRouterOperations(undefined);
  await router.navigate("/list/7");
  expect(log).toEqual(["loader item"]);
});
