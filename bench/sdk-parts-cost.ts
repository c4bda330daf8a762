/**
 * `npm run bench -- sdk-parts`: what the SDK's public way would cost where the app keeps
 * its own part (docs/decisions/0082), each pair measured in interleaved rounds in one run.
 * - transport: envelopes (3 KB, 10 in flight) through the app's `ingestTransport` and through
 *   `makeNodeTransport` with the same time-out (`httpModule`); CPU of the sending process.
 * - bypass: untraced requests to a plain `node:http` server with the SDK set up as the app sets
 *   it (`httpIntegration`: no sessions, no body), passed by the mark (sentry-request-bypass.ts)
 *   or by the public `ignoreIncomingRequests` alone; CPU of the server process.
 */
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Event } from "@sentry/core";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { formatSpread, ratio, spread } from "./support/stats";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "6" },
    sends: { type: "string", default: "4000" },
    duration: { type: "string", default: "3" },
    serve: { type: "boolean", default: false },
  },
});
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The child: an ingest that answers at once, and a server whose untraced requests skip the SDK by `mode`. */
async function serve() {
  const Sentry = await import("@sentry/node");
  const { bypassSentryUnlessTraced } = await import("../server/adapter/sentry-request-bypass");
  const ingest = http.createServer((request, response) => {
    request.resume().on("end", () => response.end("{}"));
  });
  await new Promise<void>((resolve) => ingest.listen(0, "127.0.0.1", resolve));
  Sentry.init({
    dsn: `http://public@127.0.0.1:${(ingest.address() as AddressInfo).port}/1`,
    tracesSampleRate: 0.1,
    traceLifecycle: "static",
    integrations: [
      Sentry.httpIntegration({
        ignoreIncomingRequests: () => true,
        maxRequestBodySize: "none",
        sessions: false,
      }),
    ],
  });
  let mode = "mark";
  bypassSentryUnlessTraced(() => mode !== "mark");
  const server = http.createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.on("message", (message: { mode: string }) => {
    mode = message.mode;
    process.send!({ cpuMs: cpuMs() });
  });
  process.send!({ ingest: ingest.address(), server: server.address() });
}

type Reply = { cpuMs: number; ingest: AddressInfo; server: AddressInfo };

async function main() {
  const child = fork(import.meta.filename, ["--serve"], { stdio: "inherit" });
  process.once("exit", () => child.kill("SIGKILL"));
  const reply = () => new Promise<Reply>((resolve) => child.once("message", (m) => resolve(m as Reply)));
  const { ingest, server } = await reply();
  const ask = (mode: string) => {
    const answered = reply();
    child.send({ mode });
    return answered.then((m) => m.cpuMs);
  };

  const [node, core] = await Promise.all([import("@sentry/node"), import("@sentry/core")]);
  const { ingestTransport } = await import("../app/monitoring/sentry-transport.server");
  const options = {
    url: `http://127.0.0.1:${ingest.port}/api/1/envelope/?sentry_key=public`,
    recordDroppedEvent: () => {},
    keepAlive: true,
  };
  const withTimeout = {
    request(o: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) {
      const request = http.request(o, callback);
      request.setTimeout(5_000, () => request.destroy(new Error("timed out")));
      return request;
    },
  };
  const transports = {
    ours: ingestTransport({ node, core })(options),
    makeNodeTransport: node.makeNodeTransport({ ...options, httpModule: withTimeout }),
  };
  const payload: Event = {
    type: "transaction",
    spans: Array.from({ length: 12 }, (_, i) => ({
      op: "db",
      span_id: String(i),
      description: "x".repeat(200),
    })) as never,
  };
  const envelope = core.createEnvelope({ event_id: "0".repeat(32) }, [[{ type: "transaction" }, payload]]);
  const sendAll = async (transport: (typeof transports)["ours"]) => {
    let next = 0;
    const worker = async () => {
      while (next++ < Number(values.sends)) await transport.send(envelope as never);
    };
    const before = cpuMs();
    await Promise.all(Array.from({ length: 10 }, worker));
    return ((cpuMs() - before) * 1000) / Number(values.sends);
  };
  const load = () =>
    new Promise<number>((resolve, reject) =>
      autocannon(
        { url: `http://127.0.0.1:${server.port}/`, connections: 10, duration: Number(values.duration) },
        (error, result) => (error ? reject(error) : resolve(result.requests.total)),
      ),
    );

  const samples: Record<string, number[]> = {};
  const add = (key: string, value: number) => (samples[key] ??= []).push(value);
  for (let round = 0; round <= Number(values.rounds); round++) {
    for (const [name, transport] of Object.entries(transports)) {
      const perSend = await sendAll(transport);
      if (round > 0) add(`transport ${name}`, perSend);
    }
    for (const mode of round % 2 ? ["mark", "option"] : ["option", "mark"]) {
      const before = await ask(mode);
      const requests = await load();
      if (round > 0) add(`bypass ${mode}`, (((await ask(mode)) - before) * 1000) / requests);
    }
    if (round > 0) {
      add(
        "transport ratio",
        ratio(samples["transport makeNodeTransport"]!.at(-1)!, samples["transport ours"]!.at(-1)!),
      );
      add("bypass ratio", ratio(samples["bypass option"]!.at(-1)!, samples["bypass mark"]!.at(-1)!));
    }
  }
  for (const [key, list] of Object.entries(samples))
    console.log(
      `${key.padEnd(30)} ${formatSpread(spread(list), key.endsWith("ratio") ? 3 : 1)}${key.endsWith("ratio") ? "×" : " µs CPU each"}`,
    );
  child.kill();
  await Promise.all(Object.values(transports).map((t) => t.flush(1000)));
}

if (values.serve) await serve();
else await main();
