/**
 * What a loader or action sets on Sentry's scope (`Sentry.setUser`, `setTag`, `setContext`,
 * `addBreadcrumb`) reaches its own request's events, and its transaction when traced, never another
 * request's: on a server tracing everything and on one tracing nothing (an untraced request gets its
 * own isolation scope too, app/monitoring/request-trace.server.ts), also when two requests' awaits
 * interleave, and for a form post that waits for `100 Continue` (docs/decisions/0093). The routes:
 * an account's layout whose loader tells Sentry who is signed in, and a page under it that fails on
 * request (e2e/fixtures/routes/shapes/account.tsx).
 */
import type { AppServer } from "../../test-support/app-server";
import { digestInHtml } from "../../test-support/error-digest";
import { postAfterContinue } from "../../test-support/post-after-continue";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import { DIGEST_HEADER } from "~/errors/digest";
import { expect, isErrorEvent, isTransaction, settledItems, test } from "../support/spec-helpers";
import { TRACE_MODES, tracedAndUntracedApps } from "../support/traced-and-untraced";

test.use({ serverStarts: 2 }); // a traced and an untraced app

const servers = tracedAndUntracedApps();

const ORDERS = "/fixtures/shapes/account/orders";

/** A request to the orders page; its digest when it failed. */
async function request(server: AppServer, query: string, init?: RequestInit) {
  const response = await fetch(`${server.url}${ORDERS}?${query}`, init);
  const digest = response.headers.get(DIGEST_HEADER) ?? digestInHtml(await response.text());
  return { status: response.status, requestId: response.headers.get("x-request-id"), digest };
}

/** The orders page's action, its body sent only once told to continue. */
async function postAfterContinueTo(server: AppServer, query: string) {
  const body = new URLSearchParams({ note: "x".repeat(2_000) }).toString();
  const { continued, status, headers, text } = await postAfterContinue(
    `${server.url}${ORDERS}?${query}`,
    body,
  );
  const digest = (headers[DIGEST_HEADER] as string | undefined) ?? digestInHtml(text);
  return { continued, status, requestId: (headers["x-request-id"] as string | undefined) ?? null, digest };
}

/** The one event of a failed request: what it says of who and what. */
async function eventOf(recorder: Recorder, digest: string | null | undefined) {
  expect(digest).toBeTruthy();
  const [event] = await settledItems(
    recorder,
    (item) => isErrorEvent(item) && item.payload.tags?.digest === digest,
    1,
  );
  return whoAndWhat(event!);
}

function whoAndWhat(item: EnvelopeItem) {
  const payload = item.payload;
  return {
    user: payload.user,
    account: payload.tags?.account,
    context: payload.contexts?.account,
    breadcrumbs: (payload.breadcrumbs ?? [])
      .filter((crumb: { category?: string }) => crumb.category === "fixture")
      .map((crumb: { message?: string }) => crumb.message),
  };
}

const told = (user: string) => ({
  // Only the id: the e-mail address and name the route also set are dropped (docs/sentry.md, "Privacy").
  user: { id: user },
  account: `account-of-${user}`,
  context: { owner: user },
  breadcrumbs: [`Fixture: account of ${user}`],
});
const nobody = { user: undefined, account: undefined, context: undefined, breadcrumbs: [] };

for (const mode of TRACE_MODES) {
  test.describe(`${mode}`, () => {
    test("a user set by one request never reaches the next request's event; a failing request's own does", async ({
      recorder,
    }) => {
      const server = servers[mode]!;
      const alice = await request(server, "user=alice");
      expect(alice.status).toBe(200);
      const bob = await request(server, "fail");
      expect(bob.status).toBe(500);
      const bobsEvent = await eventOf(recorder, bob.digest);
      const carol = await request(server, "user=carol&fail");
      const carolsEvent = await eventOf(recorder, carol.digest);
      console.log(
        `${mode}: after alice's request, bob's event ${JSON.stringify(bobsEvent)}; carol's ${JSON.stringify(carolsEvent)}`,
      );
      expect(bobsEvent).toEqual(nobody);
      expect(carolsEvent).toEqual(told("carol"));
    });

    test("two requests whose awaits interleave each keep their own", async ({ recorder }) => {
      const server = servers[mode]!;
      // alice sets her user and waits; bob, with none, fails while she waits; then both fail, interleaved.
      const [alice, bob] = await Promise.all([
        request(server, "user=alice&wait=600"),
        request(server, "wait=200&fail"),
      ]);
      expect(alice.status).toBe(200);
      expect(await eventOf(recorder, bob.digest)).toEqual(nobody);
      const [dave, erin] = await Promise.all([
        request(server, "user=dave&wait=500&fail"),
        request(server, "user=erin&wait=100&fail"),
      ]);
      expect(await eventOf(recorder, dave.digest)).toEqual(told("dave"));
      expect(await eventOf(recorder, erin.digest)).toEqual(told("erin"));
    });

    test("an action's user reaches its event, and not the next request's", async ({ recorder }) => {
      const server = servers[mode]!;
      const post = { method: "POST", body: new URLSearchParams({ note: "x" }) };
      const frank = await request(server, "user=frank", post);
      expect(frank.status).toBe(500);
      expect(await eventOf(recorder, frank.digest)).toEqual(told("frank"));
      const next = await request(server, "fail");
      expect(await eventOf(recorder, next.digest)).toEqual(nobody);
    });

    test("a post that waits for 100 Continue is a request like any other: its user on its own event only", async ({
      recorder,
    }) => {
      const server = servers[mode]!;
      const heidi = await postAfterContinueTo(server, "user=heidi");
      expect(heidi).toMatchObject({ continued: true, status: 500 });
      expect(await eventOf(recorder, heidi.digest)).toEqual(told("heidi"));
      const next = await request(server, "fail");
      expect(await eventOf(recorder, next.digest)).toEqual(nobody);
      if (mode === "traced") expect(await transactionOf(recorder, heidi.requestId)).toEqual(told("heidi"));
    });
  });
}

/** The one transaction of a traced request: what it says of who and what. */
async function transactionOf(recorder: Recorder, requestId: string | null) {
  expect(requestId).toBeTruthy();
  const [item] = await settledItems(
    recorder,
    (candidate) => isTransaction(candidate) && candidate.payload.tags?.request_id === requestId,
    1,
  );
  return whoAndWhat(item!);
}

test("traced: the transaction carries its own request's user, and the next one none", async ({
  recorder,
}) => {
  const server = servers.traced!;
  const grace = await request(server, "user=grace");
  expect(await transactionOf(recorder, grace.requestId)).toEqual(told("grace"));
  const next = await request(server, "wait=1");
  expect(await transactionOf(recorder, next.requestId)).toEqual(nobody);
});
