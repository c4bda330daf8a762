import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { instrumentBuild } from "./remix-spans.server";

const request = new Request("http://localhost/x");

function buildWith(module: Record<string, unknown>): ServerBuild {
  return { routes: { "routes/x": { id: "routes/x", path: "x", module } } } as unknown as ServerBuild;
}

describe("instrumentBuild", () => {
  it("wraps loaders and actions, and leaves the rest of the module and the original build alone", async () => {
    const loader = () => ({ item: 1 });
    const action = async () => "done";
    const Component = () => null;
    const original = buildWith({ loader, action, default: Component, meta: [] });
    const instrumented = instrumentBuild(original);
    const module = instrumented.routes["routes/x"]!.module as unknown as Record<string, unknown>;

    expect(module.loader).not.toBe(loader);
    expect(module.default).toBe(Component);
    expect(module.meta).toEqual([]);
    expect(original.routes["routes/x"]!.module.loader).toBe(loader);
    // Outside a traced request the wrapped functions behave exactly as the originals.
    await expect((module.loader as typeof loader)()).resolves.toEqual({ item: 1 });
    await expect((module.action as (args: { request: Request }) => unknown)({ request })).resolves.toBe(
      "done",
    );
  });

  it("does not wrap twice", () => {
    const once = instrumentBuild(buildWith({ loader: () => null }));
    const twice = instrumentBuild(once);
    expect(twice.routes["routes/x"]!.module.loader).toBe(once.routes["routes/x"]!.module.loader);
  });

  it("rethrows what the loader throws: errors and Responses alike", async () => {
    const error = new Error("boom");
    const response = new Response("gone", { status: 404 });
    for (const thrown of [error, response]) {
      const { loader } = instrumentBuild(
        buildWith({
          loader: () => {
            throw thrown;
          },
        }),
      ).routes["routes/x"]!.module as unknown as { loader: (args: { request: Request }) => Promise<unknown> };
      await expect(loader({ request })).rejects.toBe(thrown);
    }
  });
});
