import { data, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { routePatternOf } from "~/routing/request-route.server";
import { instrumentBuild, serverRuntime, wrapRemixRequestHandler } from "./remix-request-handler";

const request = new Request("http://localhost/x");
const LIMITS = { maxBodyBytes: 1024 };

function buildWith(module: Record<string, unknown>, handleError?: (error: unknown) => void): ServerBuild {
  return {
    entry: { module: { handleError } },
    routes: { "routes/x": { id: "routes/x", path: "x", module } },
  } as unknown as ServerBuild;
}

const loaderOf = (build: ServerBuild) =>
  (
    build.routes["routes/x"]!.module as unknown as {
      loader: (args: { request: Request }) => Promise<unknown>;
    }
  ).loader;

describe("instrumentBuild", () => {
  it("wraps loaders and actions, and leaves the rest of the module and the original build alone", async () => {
    const loader = () => ({ item: 1 });
    const action = async () => "done";
    const Component = () => null;
    const original = buildWith({ loader, action, default: Component, meta: [] });
    const instrumented = instrumentBuild(original, LIMITS);
    const module = instrumented.routes["routes/x"]!.module as unknown as Record<string, unknown>;

    expect(module.loader).not.toBe(loader);
    expect(module.default).toBe(Component);
    expect(module.meta).toEqual([]);
    expect(original.routes["routes/x"]!.module.loader).toBe(loader);
    // Outside a traced request the wrapped functions behave exactly as the originals.
    await expect((module.loader as (args: { request: Request }) => unknown)({ request })).resolves.toEqual({
      item: 1,
    });
    await expect((module.action as (args: { request: Request }) => unknown)({ request })).resolves.toBe(
      "done",
    );
  });

  it("does not wrap twice", () => {
    const once = instrumentBuild(buildWith({ loader: () => null }), LIMITS);
    const twice = instrumentBuild(once, LIMITS);
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
        LIMITS,
      ).routes["routes/x"]!.module as unknown as { loader: (args: { request: Request }) => Promise<unknown> };
      await expect(loader({ request })).rejects.toBe(thrown);
    }
  });
});

describe("the request guards the wrapper applies", () => {
  const throwing = (thrown: unknown) =>
    loaderOf(
      instrumentBuild(
        buildWith({
          loader: () => {
            throw thrown;
          },
        }),
        LIMITS,
      ),
    );

  it("turns a thrown plain object (an attacker-shaped error) into an Error; Errors, Responses and data() pass", async () => {
    const shaped = { __type: "Error", __subType: "WebSocket", message: "ws://evil.example" };
    const caught = await throwing(shaped)({ request }).catch((error: unknown) => error);
    expect(caught).toBeInstanceOf(TypeError);
    expect(String(caught)).toMatch(/neither an Error nor a Response \(Object\)/);
    expect(String(caught)).not.toContain("evil");
    for (const value of ["text", null, 42])
      await expect(throwing(value)({ request })).rejects.toBeInstanceOf(Error);
    const declared = data({ reason: "x" }, 400);
    await expect(throwing(declared)({ request })).rejects.toBe(declared);
  });

  it("answers 413 once a body without a declared length passes the limit, and lets a smaller one through", async () => {
    const action = async ({ request }: { request: Request }) => (await request.text()).length;
    const instrumented = instrumentBuild(buildWith({ action }), LIMITS).routes["routes/x"]!
      .module as unknown as {
      action: typeof action;
    };
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
    const loader = loaderOf(instrumentBuild(buildWith({ loader: () => ({ deep }) }), LIMITS));
    await expect(loader({ request })).rejects.toThrow(/nested deeper/);
  });
});

describe("thrown 5xx Responses", () => {
  it("go to the build's handleError once; 4xx Responses and errors do not", async () => {
    const seen: unknown[] = [];
    for (const thrown of [
      new Response("no", { status: 503 }),
      new Response("gone", { status: 404 }),
      new Error("x"),
    ]) {
      const loader = loaderOf(
        instrumentBuild(
          buildWith(
            {
              loader: () => {
                throw thrown;
              },
            },
            (error) => seen.push(error),
          ),
          LIMITS,
        ),
      );
      await expect(loader({ request })).rejects.toBe(thrown);
    }
    // Remix itself hands the Error to handleError; the wrapper must not do it a second time.
    expect(seen).toHaveLength(1);
    expect((seen[0] as Response).status).toBe(503);
  });
});

describe("wrapRemixRequestHandler (a global patch)", () => {
  it("reaches the createRequestHandler that remix-serve calls (through @remix-run/express and @remix-run/node)", () => {
    wrapRemixRequestHandler(LIMITS);
    wrapRemixRequestHandler(LIMITS); // a second call changes nothing
    // What remix-serve's `createRequestHandler({ build })` calls, resolved the way remix-serve resolves it.
    const serveRequire = createRequire(
      createRequire(import.meta.url).resolve("@remix-run/serve/package.json"),
    );
    const expressRequire = createRequire(serveRequire.resolve("@remix-run/express"));
    const node = expressRequire("@remix-run/node") as { createRequestHandler: (build: unknown) => unknown };
    expect(expressRequire("@remix-run/server-runtime")).toBe(serverRuntime());
    const spy = serverRuntime().createRequestHandler;
    expect(typeof spy).toBe("function");
    expect(Symbol.for("remix-scaffold.wrapped") in spy).toBe(true);
    expect(node.createRequestHandler).toBe(spy);
  });

  it("reaches the createRequestHandler that the Vite dev server's Remix plugin calls (npm run dev)", () => {
    wrapRemixRequestHandler(LIMITS);
    const devRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/dev"));
    expect(devRequire("@remix-run/server-runtime")).toBe(serverRuntime());
  });

  it("records the routes of the build it is given, for route patterns", () => {
    wrapRemixRequestHandler(LIMITS);
    serverRuntime().createRequestHandler({
      ...buildWith({ loader: () => null }),
      routes: {
        root: { id: "root", path: "", module: {} },
        "routes/recorded.$id": {
          id: "routes/recorded.$id",
          parentId: "root",
          path: "recorded/:id",
          module: {},
        },
      },
    });
    expect(routePatternOf(new URL("http://localhost/recorded/7"))).toBe("/recorded/:id");
  });
});
