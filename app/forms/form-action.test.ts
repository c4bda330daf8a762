import { redirect } from "@remix-run/node";
import type { useActionData } from "@remix-run/react";
import type { Span } from "@sentry/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { DISCARD_AFTER_REFUSAL_BYTES } from "~/http/request-body.server";
import { forgetServerSdk, loadServerSdk, serverSdk } from "~/monitoring/server-sdk.server";
import { DEFAULT_MAX_FORM_BYTES, parseForm, type FormFailure } from "./form-action.server";
import { startRecorder, type Recorder } from "../../test-support/sentry-recorder";

// The action span the helper annotates: a real one, of the real server SDK
// (loaded as the boot loads it), sending to the local Sentry-protocol recorder.
// Each test runs with its own action span active on the scope.
let recorder: Recorder;
let actionSpan: Span;

beforeAll(async () => {
  recorder = await startRecorder();
  const { node } = await loadServerSdk();
  node.init({
    dsn: recorder.dsn(),
    tracesSampleRate: 1,
    defaultIntegrations: false,
    traceLifecycle: "static",
  });
});

afterAll(async () => {
  await serverSdk()?.node.close(2_000);
  forgetServerSdk();
  await recorder?.close();
});

beforeEach(() => {
  const { node, core } = serverSdk()!;
  actionSpan = node.startInactiveSpan({ name: "routes/form", op: "action.remix" });
  core._INTERNAL_setSpanForScope(node.getCurrentScope(), actionSpan);
});

afterEach(() => {
  const { node, core } = serverSdk()!;
  core._INTERNAL_setSpanForScope(node.getCurrentScope(), undefined);
  actionSpan.end();
});

/** What the helper recorded on the action span (the SDK's own `sentry.*` attributes left out). */
const span = {
  get attributes() {
    const data = serverSdk()!.node.spanToJSON(actionSpan).attributes ?? {};
    return Object.fromEntries(Object.entries(data).filter(([key]) => key.startsWith("form.")));
  },
};

const schema = z.object({
  name: z.string({ error: "Enter a name." }).max(10, "Use at most 10 characters."),
  email: z.email({
    error: (issue) =>
      issue.input === undefined ? "Enter an email address." : "Enter a valid email address.",
  }),
  note: z.string().optional(),
  tags: z.array(z.string()).max(2, "Pick at most 2 tags."),
});

const URL_ = "http://localhost/form";

function urlencoded(entries: [string, string][]): Request {
  return new Request(URL_, { method: "POST", body: new URLSearchParams(entries) });
}

function multipart(entries: [string, string | File][]): Request {
  const body = new FormData();
  for (const [key, value] of entries) body.append(key, value);
  return new Request(URL_, { method: "POST", body });
}

/**
 * A request whose body arrives in `chunks` chunks of `size` bytes, without
 * Content-Length. With `hang`, the body never ends: a reader that waits for
 * its end waits forever.
 */
function chunked(chunks: number, size: number, { hang = false } = {}) {
  let pulled = 0;
  let cancelled = false;
  let finished: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === chunks) {
          if (hang) return new Promise<void>(() => {});
          controller.close();
          return finished();
        }
        pulled++;
        controller.enqueue(new TextEncoder().encode("a".repeat(size)));
      },
      cancel() {
        cancelled = true;
        finished();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(URL_, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    duplex: "half",
  } as RequestInit);
  /** Resolves once the body was read to its end or cancelled. */
  const settled = () => done.then(() => ({ pulled, cancelled }));
  const progress = () => ({ pulled, cancelled });
  return { request, settled, progress };
}

/** The Response `promise` was refused with (the helper throws it for the error boundary). */
async function refusal(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

/** The 400 reply of a failed submission. */
async function failure(request: Request, options?: Parameters<typeof parseForm>[2]) {
  const submission = await parseForm(request, schema, options);
  if (submission.ok) throw new Error("expected a failed submission");
  expect(submission.reply.init?.status).toBe(400);
  return submission.reply.data;
}

const valid: [string, string][] = [
  ["name", "Ada"],
  ["email", "ada@example.com"],
];

describe("parseForm: valid submissions", () => {
  it("returns the parsed value of a url-encoded form", async () => {
    const submission = await parseForm(urlencoded([...valid, ["note", "hi"]]), schema);
    expect(submission).toEqual({
      ok: true,
      value: { name: "Ada", email: "ada@example.com", note: "hi", tags: [] },
    });
    expect(span.attributes).toEqual({ "form.outcome": "valid" });
  });

  it("returns the parsed value of a multipart form", async () => {
    const submission = await parseForm(multipart([...valid, ["tags", "a"], ["tags", "b"]]), schema);
    expect(submission).toEqual({
      ok: true,
      value: { name: "Ada", email: "ada@example.com", tags: ["a", "b"] },
    });
  });

  it("treats an empty field as not given, so optional fields may be left empty", async () => {
    const submission = await parseForm(urlencoded([...valid, ["note", ""]]), schema);
    expect(submission.ok && submission.value.note).toBeUndefined();
  });

  it("ignores fields the schema does not know, even repeated", async () => {
    const submission = await parseForm(
      urlencoded([...valid, ["intent", "a"], ["intent", "b"], ["__proto__", "x"]]),
      schema,
    );
    expect(submission).toEqual({ ok: true, value: { name: "Ada", email: "ada@example.com", tags: [] } });
  });

  it("accepts a body of exactly the limit", async () => {
    const body = new URLSearchParams(valid).toString();
    const submission = await parseForm(urlencoded(valid), schema, { maxBytes: body.length });
    expect(submission.ok).toBe(true);
  });
});

describe("parseForm: invalid submissions answer 400 with field errors and the input", () => {
  it("a required field left empty", async () => {
    const reply = await failure(urlencoded([["name", ""], valid[1]!]));
    expect(reply.errors).toEqual({ name: ["Enter a name."] });
    expect(reply.values).toEqual({ name: "", email: "ada@example.com" });
  });

  it("a required field missing from the body", async () => {
    const reply = await failure(urlencoded([]));
    expect(reply.errors).toEqual({ name: ["Enter a name."], email: ["Enter an email address."] });
    expect(reply.values).toEqual({});
  });

  it("an email of the wrong shape", async () => {
    const reply = await failure(urlencoded([valid[0]!, ["email", "ada.example.com"]]));
    expect(reply.errors).toEqual({ email: ["Enter a valid email address."] });
    expect(reply.values).toEqual({ name: "Ada", email: "ada.example.com" });
  });

  it("a value over the maximum length", async () => {
    const reply = await failure(urlencoded([["name", "Ada Lovelace"], valid[1]!]));
    expect(reply.errors).toEqual({ name: ["Use at most 10 characters."] });
    expect(reply.values.name).toBe("Ada Lovelace");
  });

  it("an array field over its maximum keeps every submitted value", async () => {
    const reply = await failure(urlencoded([...valid, ["tags", "a"], ["tags", "b"], ["tags", "c"]]));
    expect(reply.errors).toEqual({ tags: ["Pick at most 2 tags."] });
    expect(reply.values.tags).toEqual(["a", "b", "c"]);
  });

  it("object-level rules without a field go to formErrors", async () => {
    const refined = z
      .object({ a: z.string().optional(), b: z.string().optional() })
      .refine((v) => v.a || v.b, {
        message: "Fill in a or b.",
      });
    const submission = await parseForm(urlencoded([]), refined);
    expect(submission.ok || submission.reply.data).toEqual({
      errors: {},
      formErrors: ["Fill in a or b."],
      values: {},
    });
  });

  it("never sends files back as values", async () => {
    const file = new File(["secret"], "a.txt", { type: "text/plain" });
    const withFile = z.object({ name: z.string().max(1), upload: z.instanceof(File) });
    const submission = await parseForm(
      multipart([
        ["name", "too long"],
        ["upload", file],
      ]),
      withFile,
    );
    expect(submission.ok).toBe(false);
    expect(!submission.ok && submission.reply.data.values).toEqual({ name: "too long" });
  });

  it("records the outcome and the invalid field names on the span, never the values", async () => {
    await failure(
      urlencoded([
        ["name", "Ada Lovelace"],
        ["email", "not-an-email"],
      ]),
    );
    expect(span.attributes).toEqual({ "form.outcome": "invalid", "form.invalid_fields": "email,name" });
    expect(JSON.stringify(span.attributes)).not.toMatch(/Lovelace|not-an-email/);
  });
});

describe("parseForm: requests no form of ours sends are refused", () => {
  it("a declared Content-Length over the limit answers 413 before reading the body", async () => {
    const { request } = chunked(0, 0, { hang: true });
    request.headers.set("Content-Length", String(DEFAULT_MAX_FORM_BYTES + 1));
    const response = await refusal(parseForm(request, schema));
    expect(response.status).toBe(413);
    expect(span.attributes).toEqual({ "form.outcome": "too_large" });
  });

  it("a body without Content-Length is cut off once it passes the limit (413)", async () => {
    // 9 KiB arrive, then nothing: only a reader that stops at the limit answers.
    const { request } = chunked(9, 1024, { hang: true });
    const response = await refusal(parseForm(request, schema, { maxBytes: 8 * 1024 }));
    expect(response.status).toBe(413);
  });

  it("after a 413 the rest of a moderate body is read and thrown away", async () => {
    const { request, settled } = chunked(100, 1024);
    await refusal(parseForm(request, schema, { maxBytes: 8 * 1024 }));
    expect(await settled()).toEqual({ pulled: 100, cancelled: false });
  });

  it("after a 413, at most DISCARD_AFTER_REFUSAL_BYTES more are read; the rest is left, not cancelled", async () => {
    const { request, progress } = chunked(10_000, 1024);
    await refusal(parseForm(request, schema, { maxBytes: 8 * 1024 }));
    // This body is in memory: the discarding is done once pending promise callbacks have run.
    await new Promise((resolve) => setImmediate(resolve));
    const { pulled, cancelled } = progress();
    expect(cancelled).toBe(false);
    expect(pulled).toBeGreaterThanOrEqual((8 * 1024 + DISCARD_AFTER_REFUSAL_BYTES) / 1024);
    expect(pulled).toBeLessThanOrEqual((8 * 1024 + DISCARD_AFTER_REFUSAL_BYTES) / 1024 + 2);
  });

  it("the default limit is 100 KiB", async () => {
    expect(DEFAULT_MAX_FORM_BYTES).toBe(102_400);
    const big = urlencoded([...valid, ["note", "a".repeat(DEFAULT_MAX_FORM_BYTES)]]);
    expect((await refusal(parseForm(big, schema))).status).toBe(413);
  });

  it("a multipart body over the limit answers 413", async () => {
    const file = new File(["a".repeat(2048)], "a.txt");
    const response = await refusal(
      parseForm(multipart([...valid, ["note", file]]), schema, { maxBytes: 1024 }),
    );
    expect(response.status).toBe(413);
  });

  it.each([
    ["JSON", "application/json", '{"name":"Ada"}'],
    ["plain text", "text/plain", "name=Ada"],
    ["no content type", undefined, "name=Ada"],
  ])("a %s body answers 415", async (_, contentType, body) => {
    const request = new Request(URL_, { method: "POST", body });
    if (contentType) request.headers.set("Content-Type", contentType);
    else request.headers.delete("Content-Type");
    const response = await refusal(parseForm(request, schema));
    expect(response.status).toBe(415);
    expect(span.attributes).toEqual({ "form.outcome": "unsupported_media_type" });
  });

  it("a malformed multipart body answers 400", async () => {
    const request = new Request(URL_, {
      method: "POST",
      body: "--x\r\nnot a part",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    const response = await refusal(parseForm(request, schema));
    expect(response.status).toBe(400);
    expect(span.attributes).toEqual({ "form.outcome": "malformed" });
  });

  it("a url-encoded body that is not UTF-8 answers 400", async () => {
    const request = new Request(URL_, {
      method: "POST",
      body: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff, 0xfe]),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((await refusal(parseForm(request, schema))).status).toBe(400);
  });

  it("a single-valued field submitted twice answers 400 (no guessing which one was meant)", async () => {
    const response = await refusal(parseForm(urlencoded([...valid, ["name", "Eve"]]), schema));
    expect(response.status).toBe(400);
    expect(span.attributes).toEqual({ "form.outcome": "duplicate_field" });
  });

  it("an optional field submitted twice, even empty, answers 400 as well", async () => {
    const request = urlencoded([...valid, ["note", ""], ["note", ""]]);
    expect((await refusal(parseForm(request, schema))).status).toBe(400);
  });
});

describe("types", () => {
  it("useActionData<typeof action>() sees the failure, never the redirect", () => {
    async function _action({ request }: { request: Request }) {
      const submission = await parseForm(request, schema);
      if (!submission.ok) return submission.reply;
      expectTypeOf(submission.value).toEqualTypeOf<{
        name: string;
        email: string;
        note?: string | undefined;
        tags: string[];
      }>();
      return redirect("/done");
    }
    expectTypeOf<ReturnType<typeof useActionData<typeof _action>>>().toEqualTypeOf<
      FormFailure<"name" | "email" | "note" | "tags"> | undefined
    >();
  });
});
