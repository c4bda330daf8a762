/**
 * The app's server's listeners (server-listeners.ts) against the real SDK and a real server: a post
 * that waits for `100 Continue` gets the scope and span the SDK's HTTP integration gives a request,
 * and keeps what it sets to itself. The last test is why it is re-emitted as `request`: the SDK
 * wraps that event alone (its `server.emit`), so a request handled where it arrives gets neither.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTransport, type Scope } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adviseOnFailure } from "../../test-support/guard-advice";
import { postAfterContinue } from "../../test-support/post-after-continue";
import type { PreAppHandler } from "./handler";
import { answerInFrontOfApp } from "./server-listeners";

adviseOnFailure(
  "@sentry/node's HTTP integration changed which server events it handles (@sentry/core " +
    "integrations/http/server-subscription.js): read it, and keep every request in a scope of its own.",
);

const opened: http.Server[] = [];
let outside: Scope;
let appSaw = 0;

/** Sets ?user= as a loader would, and says what it found. */
const app = (request: http.IncomingMessage, response: http.ServerResponse) => {
  appSaw += 1;
  const found = { ownScope: Sentry.getIsolationScope() !== outside, span: Boolean(Sentry.getActiveSpan()) };
  const userBefore = Sentry.getIsolationScope().getUser()?.id ?? null;
  const user = new URL(request.url ?? "/", "http://localhost").searchParams.get("user");
  if (user) Sentry.setUser({ id: user });
  request.resume().on("end", () => response.end(JSON.stringify({ ...found, userBefore })));
};
const refuseAtRefused: PreAppHandler = (request, response) => {
  if (!request.url?.startsWith("/refused")) return false;
  response.writeHead(413).end();
  return true;
};

async function listening(listen: (server: http.Server) => void): Promise<string> {
  const server = http.createServer();
  listen(server);
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  Sentry.init({
    dsn: "http://public@127.0.0.1:9/1",
    tracesSampleRate: 1,
    transport: (options) => createTransport(options, async () => ({})),
  });
  outside = Sentry.getIsolationScope();
});
afterAll(async () => {
  opened.forEach((server) => server.close());
  await Sentry.close(0);
});

describe("answerInFrontOfApp, with the SDK's HTTP integration", () => {
  it("a post waiting for 100 Continue gets the SDK's scope and span, and keeps its user to itself", async () => {
    const base = await listening((server) => answerInFrontOfApp(server, [refuseAtRefused], app));
    const heidi = await postAfterContinue(`${base}/orders?user=heidi`, "note");
    expect(heidi).toMatchObject({ continued: true, status: 200 });
    expect(JSON.parse(heidi.text)).toEqual({ ownScope: true, span: true, userBefore: null });
    const next = await postAfterContinue(`${base}/orders`, "note");
    expect(JSON.parse(next.text)).toEqual({ ownScope: true, span: true, userBefore: null });
    expect(Sentry.getIsolationScope().getUser()?.id).toBeUndefined();
  });

  it("a post a pre-app handler refuses is answered without being told to continue; the app never sees it", async () => {
    const base = await listening((server) => answerInFrontOfApp(server, [refuseAtRefused], app));
    const seen = appSaw;
    expect(await postAfterContinue(`${base}/refused`, "note")).toMatchObject({
      continued: false,
      status: 413,
      text: "",
    });
    expect(appSaw).toBe(seen);
  });

  it("why it is re-emitted: the SDK gives a post answered where it arrives (checkContinue) neither", async () => {
    const base = await listening((server) =>
      server.on("checkContinue", (request: http.IncomingMessage, response: http.ServerResponse) => {
        response.writeContinue();
        app(request, response);
      }),
    );
    const answer = await postAfterContinue(`${base}/orders`, "note");
    expect(JSON.parse(answer.text)).toMatchObject({ ownScope: false, span: false });
  });
});
