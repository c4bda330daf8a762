/**
 * The cases of the browser's router readers, the same on both frameworks (these
 * of app/routing/route-pattern.client.ts; Remix 2's navigations have their own):
 * each tree's test gives the one part that differs, a real router of its
 * framework's, made as its browser entry makes it and kept where that entry
 * keeps it (test-support/framework-router.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { browserRoutePattern } from "../app/routing/route-pattern.client";
import { NOT_FOUND_PATTERN } from "../app/routing/route-patterns";

/** A route as the cases write it: plain data either framework's router takes. */
export interface CaseRoute {
  id: string;
  path?: string;
  index?: true;
  loader?: () => Promise<null> | Response;
  action?: () => Response;
  children?: CaseRoute[];
}

export interface CaseRouter {
  state: { matches: readonly { route: { path?: string } }[] };
  navigate(to: number): Promise<void>;
  navigate(to: string, options?: { formMethod: "post"; formData: FormData }): Promise<void>;
}

/** The framework's router on `routes` at `path`, already where the framework keeps it (`window`). */
export type MountRouter = (
  routes: CaseRoute[],
  at: { path: string; basename?: string; loaderData?: Record<string, null> },
) => CaseRouter;

const PATTERN_ROUTES: CaseRoute[] = [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/$", path: "*" },
      { id: "routes/orders", path: "orders", children: [{ id: "routes/orders.$id", path: ":id" }] },
      { id: "routes/_layout", children: [{ id: "routes/_layout.login", path: "login" }] },
    ],
  },
];

export function routePatternCases(mount: MountRouter): void {
  describe("browserRoutePattern", () => {
    it("names the page the router shows by its matches", async () => {
      const router = mount(PATTERN_ROUTES, { path: "/orders" });
      expect(browserRoutePattern()).toBe("/orders");
      await router.navigate("/orders/42");
      expect(browserRoutePattern()).toBe("/orders/:id");
      expect(browserRoutePattern(router.state)).toBe("/orders/:id");
      await router.navigate("/nowhere/at/all");
      expect(browserRoutePattern()).toBe(NOT_FOUND_PATTERN);
    });

    it("names a pathname by the router's own routes, under its basename", () => {
      mount(PATTERN_ROUTES, { path: "/shop/login", basename: "/shop" });
      expect(browserRoutePattern()).toBe("/login");
      expect(browserRoutePattern("/shop/orders/7")).toBe("/orders/:id");
      expect(browserRoutePattern("/shop")).toBe("/");
      expect(browserRoutePattern("/orders/7")).toBeUndefined();
    });

    it("is undefined before the framework created its router", () => {
      vi.stubGlobal("window", {});
      expect(browserRoutePattern()).toBeUndefined();
    });
  });
}
