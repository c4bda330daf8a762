import { describe, expect, it } from "vitest";
import { wrapDataFunctions, type RouteTable } from "./wrap";

/**
 * An action that reads the body itself (`request.formData()`, `json()`)
 * through the loader and action wrapper: a body the client sent in another
 * shape is refused (415 or 400, app/http/request-body.server.ts), never a
 * failure of the action.
 */
describe("bodies an action reads itself", () => {
  const refusals: unknown[] = [];
  const action = wrapDataFunctions(
    {
      "routes/x": {
        id: "routes/x",
        path: "x",
        module: {
          action: async ({ request }: { request: Request }) => {
            const form = await request.formData();
            return String(form.get("note"));
          },
        },
      },
      "routes/j": {
        id: "routes/j",
        path: "j",
        module: { action: async ({ request }: { request: Request }) => request.json() },
      },
      "routes/twice": {
        id: "routes/twice",
        path: "twice",
        module: {
          action: async ({ request }: { request: Request }) => {
            await request.text();
            return request.formData();
          },
        },
      },
    } as RouteTable,
    { handleError: undefined, maxBodyBytes: 1024, refuse: (_request, refusal) => refusals.push(refusal) },
  ) as Record<string, { module: { action: (args: { request: Request }) => Promise<unknown> } }>;
  const post = (body: string, contentType?: string) =>
    new Request("http://localhost/x", {
      method: "POST",
      body,
      headers: contentType ? { "Content-Type": contentType } : {},
    });
  const statusOf = async (route: string, request: Request) => {
    refusals.length = 0;
    const thrown = await action[route]!.module.action({ request }).catch((error: unknown) => error);
    return thrown instanceof Response ? thrown.status : thrown;
  };

  it("answers a body that is no form 415, a malformed one 400, each refused once", async () => {
    expect(await statusOf("routes/x", post('{"note":1}', "application/json"))).toBe(415);
    expect(refusals).toEqual([{ status: 415, reason: "not a form" }]);
    expect(await statusOf("routes/x", post("note=1"))).toBe(415);
    expect(await statusOf("routes/x", post("--x\r\nnope", "multipart/form-data; boundary=x"))).toBe(400);
    expect(refusals).toEqual([{ status: 400, reason: "malformed form body" }]);
    expect(await statusOf("routes/j", post("{nope", "application/json"))).toBe(400);
    expect(refusals).toEqual([{ status: 400, reason: "malformed JSON" }]);
  });

  it("reads a good body as before, and leaves the action's own mistakes to it", async () => {
    expect(
      await action["routes/x"]!.module.action({
        request: post("note=hi", "application/x-www-form-urlencoded"),
      }),
    ).toBe("hi");
    // Reading the body twice is the action's bug: the platform's TypeError, not a refusal.
    expect(
      await statusOf("routes/twice", post("note=1", "application/x-www-form-urlencoded")),
    ).toBeInstanceOf(TypeError);
    expect(refusals).toEqual([]);
  });
});
