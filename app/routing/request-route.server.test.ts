import { describe, expect, it } from "vitest";
import { ROOT_DATA_PATH } from "./data-url";
import type { RouteDefinition } from "./route-patterns";
import { namesUnknownRoute, recordServedRoutes, routePatternOf } from "./request-route.server";

const routes: Record<string, RouteDefinition> = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  "routes/orders.$id": { id: "routes/orders.$id", parentId: "root", path: "orders/:id" },
};
const url = (path: string) => new URL(path, "http://localhost");

describe("the served route table", () => {
  it("names requests and single-fetch routes from the routes Remix was given", () => {
    recordServedRoutes(routes);
    expect(routePatternOf(url("/orders/42"))).toBe("/orders/:id");
    expect(routePatternOf(url("/orders/42.data"))).toBe("/orders/:id");
    expect(routePatternOf(url(ROOT_DATA_PATH))).toBe("/");
    expect(routePatternOf(url("/nowhere"))).toBe("/*");
    expect(namesUnknownRoute(url("/orders/42.data?_routes=root,routes/orders.$id"))).toBe(false);
    expect(namesUnknownRoute(url("/orders/42.data?_routes=routes/nope"))).toBe(true);
  });

  it("is replaced by a new build (an edit under the dev server)", () => {
    recordServedRoutes(routes);
    recordServedRoutes(routes); // the same build again: nothing recomputed
    expect(routePatternOf(url("/about"))).toBe("/*");
    recordServedRoutes({
      ...routes,
      "routes/about": { id: "routes/about", parentId: "root", path: "about" },
    });
    expect(routePatternOf(url("/about"))).toBe("/about");
  });
});
