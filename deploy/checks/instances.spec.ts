/**
 * Three instances (each through the real `npm start`) behind Debian's nginx:
 * nothing one instance holds is needed by the next request (stateless), a
 * digest leads to the instance that logged it, and a rolling restart under
 * steady mixed load fails no request. docs/operating.md, "Scaling out" has the figures.
 */
import { startApp, type AppServer } from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import { expect, test } from "../../test-support/test-with-app";
import { startNginx, type Nginx } from "./support/nginx";
import { watchReadiness, type Rotation } from "./support/rotation";
import { startMixedLoad } from "./support/mixed-load";
import { summarize, type Phase } from "./support/latency";
import { DIGEST_PATTERN } from "../../app/errors/digest";
import { digestInHtml } from "../../test-support/error-digest";

test.use({ serverStarts: 6 }); // three instances, each restarted once

const INSTANCES = 3;
/** Long enough for the readiness watcher to take a draining instance out of nginx, with room to spare. */
const DRAIN_DELAY_MS = 3_000;
const TUNNEL = "/monitoring";

interface Instance {
  name: string;
  port: number;
  app: AppServer;
}

let instances: Instance[] = [];
let nginx: Nginx;
let rotation: Rotation;

test.describe.configure({ mode: "serial" });

const start = (name: string, port: number, dsn: string) =>
  startApp({
    env: {
      PORT: String(port),
      INSTANCE_ID: name,
      SENTRY_DSN: dsn,
      SENTRY_TRACES_SAMPLE_RATE: "0",
      SENTRY_TUNNEL_ROUTE: TUNNEL,
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      // One hop: nginx. ("loopback" would also trust this test, a client on the same host.)
      TRUST_PROXY: "1",
    },
  });

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(180_000);
  for (let index = 0; index < INSTANCES; index++) {
    const name = `web-${index + 1}`;
    const port = await freePort();
    instances.push({ name, port, app: await start(name, port, recorder.dsn()) });
  }
  nginx = await startNginx(instances.map(({ port }) => ({ port })));
  rotation = watchReadiness(
    nginx,
    instances.map(({ port }) => port),
  );
});

test.afterAll(async () => {
  try {
    await rotation?.stop();
  } finally {
    await nginx?.stop();
    // SIGINT: no drain delay; the instances are not behind anything any more.
    await Promise.all(instances.map(({ app }) => app.stop("SIGINT")));
    instances = [];
  }
});

/** The instance that answered, from the test configuration's `X-Upstream` header. */
function servedBy(response: Response): Instance {
  const upstream = response.headers.get("x-upstream");
  const instance = instances.find(({ port }) => upstream === `127.0.0.1:${port}`);
  if (!instance) throw new Error(`unknown upstream ${upstream}`);
  return instance;
}

test("a form post and the page it redirects to are served by different instances", async () => {
  const post = await fetch(`${nginx.url}/fixtures/form`, {
    method: "POST",
    body: new URLSearchParams({ name: "Ada", email: "ada@example.com" }),
    redirect: "manual",
  });
  expect(post.status).toBe(302);
  const location = post.headers.get("location")!;
  expect(location).toBe("/fixtures/form/done");
  const page = await fetch(new URL(location, nginx.url));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Form sent");
  const [postedTo, redirectedTo] = [servedBy(post), servedBy(page)];
  expect(postedTo.name).not.toBe(redirectedTo.name);
  // Their own access lines agree, each naming its instance.
  await postedTo.app.waitForLog(
    (line) => line.msg === "request" && line.method === "POST" && line.url === "/fixtures/form",
  );
  const done = await redirectedTo.app.waitForLog(
    (line) => line.msg === "request" && line.url === "/fixtures/form/done",
  );
  expect(done).toMatchObject({ instance: redirectedTo.name, status: 200, client: "127.0.0.1" });
});

test("an error's digest is in the log of the instance that served it, and only there", async () => {
  const served = new Set<string>();
  for (let round = 0; round < INSTANCES; round++) {
    const response = await fetch(`${nginx.url}/fixtures/loader-error`);
    expect(response.status).toBe(500);
    const digest = digestInHtml(await response.text());
    expect(digest).toMatch(DIGEST_PATTERN);
    const instance = servedBy(response);
    const line = await instance.app.waitForLog((entry) => entry.digest === digest);
    expect(line).toMatchObject({ level: "error", instance: instance.name, path: "/fixtures/loader-error" });
    for (const other of instances.filter((candidate) => candidate !== instance)) {
      expect(other.app.logLines().filter((entry) => entry.digest === digest)).toEqual([]);
    }
    served.add(instance.name);
  }
  expect(served.size).toBe(INSTANCES); // round robin: each instance had one
});

test("the tunnel works through every instance, with the client address nginx saw", async ({ recorder }) => {
  const served = new Set<string>();
  for (let round = 0; round < INSTANCES; round++) {
    const message = `through-nginx-${round}`;
    const item = JSON.stringify({ message, level: "info" });
    const body = [
      JSON.stringify({ dsn: recorder.dsn() }),
      JSON.stringify({ type: "event", length: Buffer.byteLength(item) }),
      item,
    ].join("\n");
    // A client-made X-Forwarded-For: nginx appends the address it saw, the app trusts only nginx.
    const response = await fetch(nginx.url + TUNNEL, {
      method: "POST",
      body,
      headers: { "X-Forwarded-For": "6.6.6.6" },
    });
    expect(response.status).toBe(200);
    served.add(servedBy(response).name);
    const forwarded = await recorder.waitForItem((candidate) => candidate.payload?.message === message);
    const envelope = recorder.envelopes.find((candidate) => candidate.items.includes(forwarded))!;
    expect(envelope.headers["x-forwarded-for"]).toBe("127.0.0.1");
  }
  expect(served.size).toBe(INSTANCES);
});

test("a rolling restart under steady mixed load fails no request", async ({ recorder }, testInfo) => {
  test.setTimeout(600_000);
  const WARM_UP = 300; // first requests: cold JIT, left out of the steady figures
  const STEADY = 1_500;
  const AFTER = 1_000;
  const TOTAL = 5_000;
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const load = startMixedLoad(nginx.url, { concurrency: 8, maxRequests: 40_000, maxMs: 420_000 });
  const restarts: { name: string; outOfRotationMs: number; backInRotationMs: number }[] = [];
  let from = 0;
  let to = 0;
  try {
    await until(() => load.samples.length >= WARM_UP + STEADY);
    from = performance.now();
    for (const instance of instances) {
      const signalled = performance.now();
      const old = instance.app;
      const exited = old.stop("SIGTERM");
      await rotation.waitFor(instance.port, false);
      const out = performance.now() - signalled;
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(old.logLines().find((line) => line.msg === "shut down")).toMatchObject({
        inFlightFinished: true,
      });
      expect(old.output()).toBe(old.stdout()); // nothing on stderr
      instance.app = await start(instance.name, instance.port, recorder.dsn());
      await rotation.waitFor(instance.port, true);
      restarts.push({
        name: instance.name,
        outOfRotationMs: out,
        backInRotationMs: performance.now() - signalled,
      });
    }
    to = performance.now();
    await until(
      () =>
        load.samples.filter((sample) => sample.start > to).length >= AFTER && load.samples.length >= TOTAL,
    );
  } finally {
    await load.stop();
  }
  const samples = load.samples;
  const phases: Record<Phase, typeof samples> = {
    steady: samples.slice(WARM_UP).filter((sample) => sample.start < from),
    restarting: samples.filter((sample) => sample.start >= from && sample.start <= to),
    after: samples.filter((sample) => sample.start > to),
  };
  const summary = summarize(phases, restarts);
  console.log(summary.text);
  await testInfo.attach("rolling-restart.json", { body: JSON.stringify(summary.data, null, 2) });

  expect(samples.length).toBeGreaterThanOrEqual(TOTAL);
  expect(samples.filter((sample) => sample.failure).map((s) => `${s.kind}: ${s.failure}`)).toEqual([]);
  // The restarts happened under load, POSTs included, and every new instance took traffic.
  expect(phases.restarting.length).toBeGreaterThanOrEqual(50 * INSTANCES);
  expect(phases.restarting.filter((s) => s.kind.endsWith("-post")).length).toBeGreaterThanOrEqual(
    20 * INSTANCES,
  );
  for (const { app, name } of instances) {
    expect(app.logLines().filter((line) => line.msg === "request").length, name).toBeGreaterThan(0);
  }
});
