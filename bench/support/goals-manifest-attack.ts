/**
 * The manifest attack's goals (bench/README.md, "Goals"; SECURITY.md, GHSA-chx6-hx7r-mcp5): one
 * 7 KB `/__manifest` request of 3 700 path segments costs the server a few pages of CPU at most, and
 * `/healthz` answers beside four clients sending them as it does beside four loading pages. One app
 * of the e2e build, Sentry off (the guard and the framework's matching are measured, not the SDK).
 * Not planted: page and attack share the one server, which the busy work would slow alike.
 */
import autocannon from "autocannon";
import { BUILDS } from "./builds";
import {
  e2ePath,
  expected,
  warmedUp,
  inTurn,
  PerRound,
  type GoalContext,
  type GoalSection,
} from "./goal-run";
import { measure } from "./measure";
import { startAppServer, type BenchServer } from "./servers";
import { spread } from "./stats";
import type { Workload } from "./workloads";

const PAGE = e2ePath("page", "/fixtures/items/1", 200);
const ATTACKERS = 4;

/** The version the attack names, from the page's manifest script (as a browser would find it). */
async function manifestVersion(url: string): Promise<string> {
  const html = await (await fetch(`${url}${PAGE.path(1)}`)).text();
  const script = /\/assets\/manifest-[^"]+\.js/.exec(html)![0];
  const source = await (await fetch(`${url}${script}`)).text();
  return /version:\s*"([^"]+)"|"version":\s*"([^"]+)"/.exec(source)!.slice(1).find(Boolean)!;
}

/** Milliseconds of `count` requests of `path` one after another, each. */
async function walls(url: string, count: number, pause = 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await (await fetch(url)).arrayBuffer();
    times.push(performance.now() - started);
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return times;
}

/** /healthz's median wait while `clients` connections send `workload` without pause. */
async function healthBeside(server: BenchServer, workload: Workload): Promise<number> {
  const load = autocannon(
    { url: server.url + workload.path(1), connections: ATTACKERS, duration: 60 },
    () => {},
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return spread(await walls(`${server.url}/healthz`, 10, 50)).median;
  } finally {
    load.stop();
  }
}

export function manifestAttackGoals(context: GoalContext): GoalSection {
  let server: BenchServer | undefined;
  const attacks: Workload[] = [];
  const figures = new PerRound();
  return {
    builds: [BUILDS.e2e],
    async start() {
      server = await startAppServer("attacked", {});
      const version = await manifestVersion(server.url);
      // Remix's form (`p`) and React Router's (`paths`): each framework reads its own, refuses the other.
      for (const key of ["p", "paths"]) {
        const path = `/__manifest?version=${version}&${key}=${"/a".repeat(3700)}`;
        attacks.push(e2ePath(`attack ${key}`, path, (await fetch(server.url + path)).status));
      }
      for (const workload of [PAGE, ...attacks])
        warmedUp(await measure(server, workload, 1, context.warmup, context.connections), "warm-up");
    },
    async round(round) {
      const cpu = new Map<string, number>();
      for (const workload of inTurn([PAGE, ...attacks], round)) {
        const m = expected(
          await measure(server!, workload, 1, context.duration, context.connections),
          workload.id,
        );
        cpu.set(workload.id, m.cpuMsPerRequest);
      }
      figures.add("page cpu", cpu.get(PAGE.id)!);
      figures.add("attack cpu", Math.max(...attacks.map((attack) => cpu.get(attack.id)!)));
      const pageWall = spread(await walls(server!.url + PAGE.path(1), 20)).median;
      const beside = new Map<Workload, number>();
      const attack = attacks[round % attacks.length]!;
      for (const workload of inTurn([attack, PAGE], round))
        beside.set(workload, await healthBeside(server!, workload));
      figures.add("health attack", beside.get(attack)!);
      figures.add("health pages", 3 * beside.get(PAGE)! + pageWall);
      context.log(`round ${round} manifest attack: ${cpu.get(attack.id)!.toFixed(3)} CPU ms/req`);
    },
    rows: () => [
      {
        goal: "/__manifest attack request: CPU ÷ a page's (the worse form)",
        kind: "max",
        bound: 4,
        values: figures.ratio("attack cpu", "page cpu"),
      },
      {
        goal: `/healthz beside ${ATTACKERS} attackers: median ÷ (3 × beside ${ATTACKERS} page loaders + a page)`,
        kind: "max",
        bound: 1,
        values: figures.ratio("health attack", "health pages"),
      },
    ],
    async stop() {
      await server?.stop();
    },
  };
}
