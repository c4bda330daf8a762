/**
 * Three instances (each through the real `npm start`) behind Debian's nginx:
 * nothing one instance holds is needed by the next request (stateless), a
 * digest leads to the instance that logged it, and a rolling restart fails
 * none of a fixed number of mixed requests, sent in each state an instance
 * passes through (draining in rotation, taken out, gone, its successor back).
 */
import { startApp, type AppServer } from "../../test-support/app-server";
import { freePort } from "../../test-support/free-port";
import { expect, test } from "../../test-support/test-with-app";
import { startNginx, type Nginx } from "./support/nginx";
import { watchReadiness, type Rotation } from "./support/rotation";
import { KINDS, sendMixed, type Sample } from "./support/mixed-requests";
import { DIGEST_PATTERN } from "../../app/errors/digest";
import { digestInHtml } from "../../test-support/error-digest";

test.use({ serverStarts: 6 }); // three instances, each restarted once

const INSTANCES = 3;
/** Long enough for a batch of requests and the readiness watcher to take a draining instance out of nginx, with room to spare. */
const DRAIN_DELAY_MS = 5_000;
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
    const name = `web-${index + 1}a`; // its successor: web-…b
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

test("a rolling restart fails none of a fixed number of requests, whatever state the instances are in", async ({
  recorder,
}) => {
  test.setTimeout(300_000);
  const BATCH = 24; // six of each kind; round robin gives each of three instances eight
  const samples: Sample[] = [];
  /** A batch through nginx, alongside `transition` if given (a change of nginx's rotation). */
  const batch = async (transition?: Promise<void>) => {
    const [sent] = await Promise.all([sendMixed(nginx.url, { count: BATCH, concurrency: 8 }), transition]);
    samples.push(...sent);
    return sent;
  };
  // `$upstream_addr` lists every instance tried, the one that answered last.
  const answeredBy = (sample: Sample) => sample.upstream?.split(", ").at(-1);
  const ports = () => instances.map(({ port }) => port);
  /** Shown when a batch missed an instance: where each request went, the watcher's changes, nginx's log. */
  const report = (name: string, sent: Sample[]) =>
    `${name}\n${JSON.stringify(
      {
        upstreams: sent.map((sample) => sample.upstream ?? sample.failure),
        rotation: rotation.events,
        nginx: nginx.errorLog().trim().split("\n").slice(-20),
      },
      null,
      1,
    )}`;

  for (const instance of instances) {
    const [old, upstream] = [instance.app, `127.0.0.1:${instance.port}`];
    // SIGTERM before the orchestrator notices: draining, still in rotation, it serves its share.
    await rotation.stop();
    const exited = old.stop("SIGTERM");
    await old.waitForLog((line) => line.msg === "shutting down");
    const draining = await batch();
    expect(
      draining.filter((sample) => answeredBy(sample) === upstream).length,
      report(instance.name, draining),
    ).toBeGreaterThan(0);

    // Taken out while requests are in flight; once it is gone, none is sent to it.
    rotation = watchReadiness(nginx, ports());
    await batch(rotation.waitFor(instance.port, false));
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(old.logLines().find((line) => line.msg === "shut down")).toMatchObject({
      inFlightFinished: true,
    });
    expect(old.output()).toBe(old.stdout()); // nothing on stderr
    const gone = await batch();
    expect(gone.filter((sample) => sample.upstream?.includes(upstream))).toEqual([]);

    // Its successor, a new instance id on the same port, is put back in and takes its share.
    instance.name = instance.name.replace(/a$/, "b");
    instance.app = await start(instance.name, instance.port, recorder.dsn());
    await batch(rotation.waitFor(instance.port, true));
    const back = await batch();
    expect(
      back.filter((sample) => answeredBy(sample) === upstream).length,
      report(instance.name, back),
    ).toBeGreaterThan(0);
    const served = instance.app.logLines().filter((line) => line.msg === "request");
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((line) => line.instance !== instance.name)).toEqual([]);
  }

  expect(samples.filter((sample) => sample.failure).map((s) => `${s.kind}: ${s.failure}`)).toEqual([]);
  expect(samples.length).toBe(INSTANCES * 5 * BATCH);
  for (const kind of KINDS)
    expect(samples.filter((sample) => sample.kind === kind).length).toBe(samples.length / 4);
});
