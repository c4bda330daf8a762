import { data } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { wrapDataFunctions, type RouteTable } from "./wrap";

const request = new Request("http://localhost/x");

function wrappedWith(module: Record<string, unknown>, handleError?: (error: unknown) => void) {
  return wrapDataFunctions({ "routes/x": { id: "routes/x", path: "x", module } } as RouteTable, {
    handleError,
    maxBodyBytes: 1024,
  })["routes/x"]!.module as {
    loader: (args: { request: Request }) => Promise<unknown>;
    action: (args: { request: Request }) => Promise<unknown>;
  } & Record<string, unknown>;
}

const loaderOf = (module: Record<string, unknown>, handleError?: (error: unknown) => void) =>
  wrappedWith(module, handleError).loader;

describe("wrapDataFunctions", () => {
  it("wraps loaders and actions, and leaves the rest of the module and the original table alone", async () => {
    const loader = () => ({ item: 1 });
    const action = async () => "done";
    const Component = () => null;
    const original = { loader, action, default: Component, meta: [] };
    const module = wrappedWith(original);

    expect(module.loader).not.toBe(loader);
    expect(module.default).toBe(Component);
    expect(module.meta).toEqual([]);
    expect(original.loader).toBe(loader);
    // Outside a traced request the wrapped functions behave exactly as the originals.
    await expect((module.loader as (args: { request: Request }) => unknown)({ request })).resolves.toEqual({
      item: 1,
    });
    await expect((module.action as (args: { request: Request }) => unknown)({ request })).resolves.toBe(
      "done",
    );
  });

  it("runs each call inside the span it is given, by kind and route id (Remix 2's spans)", async () => {
    const spans: string[] = [];
    const { loader, action } = wrapDataFunctions(
      {
        "routes/x": { id: "routes/x", path: "x", module: { loader: () => 1, action: () => 2 } },
      } as RouteTable,
      {
        handleError: undefined,
        maxBodyBytes: 1024,
        span: (kind, routeId, run) => {
          spans.push(`${kind} ${routeId}`);
          return run();
        },
      },
    )["routes/x"]!.module as Record<"loader" | "action", (args: { request: Request }) => Promise<unknown>>;
    await expect(loader({ request })).resolves.toBe(1);
    await expect(action({ request: new Request("http://localhost/x", { method: "POST" }) })).resolves.toBe(2);
    expect(spans).toEqual(["loader routes/x", "action routes/x"]);
  });

  it("rethrows what the loader throws: errors and Responses alike", async () => {
    const error = new Error("boom");
    const response = new Response("gone", { status: 404 });
    for (const thrown of [error, response]) {
      const loader = loaderOf({
        loader: () => {
          throw thrown;
        },
      });
      await expect(loader({ request })).rejects.toBe(thrown);
    }
  });
});

describe("the request guards the wrapper applies", () => {
  const throwing = (thrown: unknown) =>
    loaderOf({
      loader: () => {
        throw thrown;
      },
    });

  it("turns a thrown plain object (an attacker-shaped error) into an Error; Errors, Responses and data() pass", async () => {
    const shaped = { __type: "Error", __subType: "WebSocket", message: "ws://evil.example" };
    const caught = await throwing(shaped)({ request }).catch((error: unknown) => error);
    expect(caught).toBeInstanceOf(TypeError);
    expect(String(caught)).toMatch(
      /neither an Error nor a Response \(Object with keys: __subType, __type, message\)/,
    );
    expect(String(caught)).not.toContain("evil");
    for (const value of ["text", null, 42])
      await expect(throwing(value)({ request })).rejects.toBeInstanceOf(Error);
    const declared = data({ reason: "x" }, 400);
    await expect(throwing(declared)({ request })).rejects.toBe(declared);
  });

  it("answers 413 once a body without a declared length passes the limit, and lets a smaller one through", async () => {
    const action = async ({ request }: { request: Request }) => (await request.text()).length;
    const instrumented = wrappedWith({ action });
    const post = (size: number) => {
      const chunk = new TextEncoder().encode("x".repeat(256));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return new Request("http://localhost/x", { method: "POST", body, duplex: "half" } as RequestInit);
    };
    await expect(instrumented.action({ request: post(1024) })).resolves.toBe(1024);
    const refused = await instrumented
      .action({ request: post(64 * 1024) })
      .catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(413);
  });

  it("refuses data nested deeper than the encoder can take, as an unexpected error", async () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < 10_000; level++) deep = [deep];
    const loader = loaderOf({ loader: () => ({ deep }) });
    await expect(loader({ request })).rejects.toThrow(/nested deeper/);
  });
});

describe("thrown 5xx Responses and data()", () => {
  it("go to the build's handleError once; 4xx answers and errors do not", async () => {
    const seen: unknown[] = [];
    const failed = data({}, { status: 502, statusText: "Payment provider down" });
    for (const thrown of [
      new Response("no", { status: 503 }),
      failed,
      new Response("gone", { status: 404 }),
      data({ field: "missing" }, { status: 400 }),
      data("no init"),
      new Error("x"),
    ]) {
      const loader = loaderOf(
        {
          loader: () => {
            throw thrown;
          },
        },
        (error) => seen.push(error),
      );
      await expect(loader({ request })).rejects.toBe(thrown);
    }
    // The framework itself hands the Error to handleError; the wrapper must not do it a second time.
    expect(seen).toHaveLength(2);
    expect((seen[0] as Response).status).toBe(503);
    expect(seen[1]).toBe(failed);
  });
});
