/**
 * `npm run bench -- startup`: start-up time and resident memory of the bare Remix
 * baseline (A), the app with Sentry off (B) and on (D, the default rate), and
 * the baseline with `@sentry/remix` as documented (E), on 127.0.0.1, one
 * route-count build (1 route). For each target, `--rounds` times (default 5),
 * interleaved A, B, D, E: the time from spawning the start
 * command to the server answering its first request (remix-serve's banner,
 * then `GET /` answered), split into spawn → listening (the banner) and the
 * first request, and the server's `VmRSS` once started (before any request)
 * and after 200 requests of `/`. Prints the medians (min–max).
 * Every server is stopped at the end, on an error and on Ctrl-C.
 */
import { parseArgs } from "node:util";
import { startRecorder, type Recorder } from "../test-support/sentry-recorder";
import { ensureBuild, routeCountBuilds } from "./support/builds";
import type { TargetId } from "./support/report";
import { memoryMb, stopAll } from "./support/servers";
import { AVAILABLE_TARGETS, startTarget, TARGET_NAMES } from "./support/targets";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, help: { type: "boolean", short: "h" } },
});
if (values.help) {
  console.log("usage: npm run bench -- startup [--rounds 5]   (targets A, B, D, E at 1 route)");
  process.exit(0);
}
const rounds = Number(values.rounds);
const builds = routeCountBuilds(1);
const log = (line: string) => process.stderr.write(`${line}\n`);

// Sentry on at the default rate (D), as a deployment runs it.
const STARTUP_TARGETS: TargetId[] = ["A", "B", "D", "E"];
const targets = AVAILABLE_TARGETS.filter((id) => STARTUP_TARGETS.includes(id)).map((id) => ({
  id,
  name: TARGET_NAMES[id],
  start: (recorder: Recorder) => startTarget(id, { routes: 1, recorder }),
}));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const figure = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

async function main() {
  ensureBuild(builds.baseline, "auto", log);
  ensureBuild(builds.app, "auto", log);
  if (AVAILABLE_TARGETS.includes("E")) ensureBuild(builds.documented, "auto", log);
  const recorder = await startRecorder();
  const samples = new Map(
    targets.map((t) => [
      t.id,
      {
        startMs: [] as number[],
        listeningMs: [] as number[],
        firstMs: [] as number[],
        idle: [] as number[],
        loaded: [] as number[],
      },
    ]),
  );
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const target of targets) {
        const began = performance.now();
        const server = await target.start(recorder);
        const listening = performance.now();
        try {
          const first = await fetch(`${server.url}/`);
          await first.arrayBuffer();
          const startMs = performance.now() - began;
          const idle = memoryMb(server.pid).rss;
          for (let i = 0; i < 200; i++) await (await fetch(`${server.url}/`)).arrayBuffer();
          const loaded = memoryMb(server.pid).rss;
          const sample = samples.get(target.id)!;
          sample.startMs.push(startMs);
          sample.listeningMs.push(listening - began);
          sample.firstMs.push(began + startMs - listening);
          sample.idle.push(idle);
          sample.loaded.push(loaded);
          log(
            `round ${round} ${target.id}: ${startMs.toFixed(0)} ms, RSS ${idle.toFixed(1)} → ${loaded.toFixed(1)} MB`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await stopAll();
    await recorder.close();
  }
  console.log(
    `| target | start-up ms | of which: to listening | first request | RSS started MB | RSS after 200 requests MB |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  for (const target of targets) {
    const sample = samples.get(target.id)!;
    console.log(
      `| ${target.name} | ${figure(sample.startMs, 0)} | ${figure(sample.listeningMs, 0)} | ` +
        `${figure(sample.firstMs, 0)} | ${figure(sample.idle, 1)} | ${figure(sample.loaded, 1)} |`,
    );
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().finally(() => process.exit(1)));
}
main().catch(async (error: unknown) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
