/**
 * What a lazy-route-discovery attack (GHSA-chx6-hx7r-mcp5: one 7 KB GET of
 * thousands of path segments) costs the server, against what a page costs, in
 * one run: CPU time per request, and how long /healthz waits while attack
 * requests arrive in parallel, against how long it waits beside as many page loads. What such a
 * request cost before the guard: SECURITY.md. Runs in the "faults" project, alone on the
 * machine, like the other cost comparisons.
 */
import { startApp } from "../../test-support/app-server";
import { expect, test } from "../support/spec-helpers";
import { cpuMs, percentile } from "../../test-support/load";

test.use({ serverStarts: 1 }); // its own app

async function manifestVersion(baseURL: string): Promise<string> {
  const html = await (await fetch(`${baseURL}/fixtures/items/1`)).text();
  const script = /\/assets\/manifest-[^"]+\.js/.exec(html)![0];
  const source = await (await fetch(`${baseURL}${script}`)).text();
  return /version:\s*"([^"]+)"|"version":\s*"([^"]+)"/.exec(source)!.slice(1).find(Boolean)!;
}

async function timed(send: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await send();
  return performance.now() - started;
}

test("a /__manifest attack request costs a few pages of CPU, and /healthz answers while they arrive", async () => {
  test.setTimeout(240_000);
  // Sentry off: what is measured is Remix's matching, not the SDK.
  const app = await startApp();
  try {
    const page = () => fetch(`${app.url}/fixtures/items/1`).then((response) => response.text());
    const version = await manifestVersion(app.url);
    // Remix's form (`p`) and React Router 7's (`paths`): each framework reads its own, answers the other 400.
    const attackIn = (key: "p" | "paths") => () =>
      fetch(`${app.url}/__manifest?version=${version}&${key}=${"/a".repeat(3700)}`).then((response) =>
        response.text(),
      );
    for (let i = 0; i < 20; i++) await page(); // warm

    const cost = async (send: () => Promise<unknown>, count: number) => {
      const before = cpuMs(app.process.pid!);
      const walls: number[] = [];
      for (let i = 0; i < count; i++) walls.push(await timed(send));
      return { cpu: (cpuMs(app.process.pid!) - before) / count, wall: percentile(walls, 50) };
    };
    const pages = await cost(page, 200);
    const byForm = { p: await cost(attackIn("p"), 40), paths: await cost(attackIn("paths"), 40) };
    const attacks = byForm.p.cpu >= byForm.paths.cpu ? byForm.p : byForm.paths;

    // /healthz while four clients send attack requests in parallel, against the same while four
    // clients load pages: alternating rounds, so both meet the same machine.
    const healthBeside = async (send: () => Promise<unknown>) => {
      let sending = true;
      const clients = [0, 1, 2, 3].map(async () => {
        while (sending) await send();
      });
      const health: number[] = [];
      try {
        for (let i = 0; i < 10; i++) {
          health.push(await timed(() => fetch(`${app.url}/healthz`).then((response) => response.text())));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        sending = false;
        await Promise.all(clients);
      }
      return health;
    };
    const underAttack: number[] = [];
    const underPages: number[] = [];
    for (let round = 0; round < 4; round++) {
      const attackFirst = round % 2 === 0;
      const first = await healthBeside(attackFirst ? attackIn(round < 2 ? "p" : "paths") : page);
      const second = await healthBeside(attackFirst ? page : attackIn(round < 2 ? "p" : "paths"));
      (attackFirst ? underAttack : underPages).push(...first);
      (attackFirst ? underPages : underAttack).push(...second);
    }
    const [attackMedian, pagesMedian] = [percentile(underAttack, 50), percentile(underPages, 50)];
    console.log(
      `page: ${pages.cpu.toFixed(2)} ms CPU, ${pages.wall.toFixed(1)} ms median; ` +
        `/__manifest attack: p ${byForm.p.cpu.toFixed(2)} ms, paths ${byForm.paths.cpu.toFixed(2)} ms CPU ` +
        `(the worse ${(attacks.cpu / pages.cpu).toFixed(2)}x a page); /healthz median beside 4 attackers ` +
        `${attackMedian.toFixed(1)} ms, beside 4 page loaders ${pagesMedian.toFixed(1)} ms ` +
        `(worst ${Math.max(...underAttack).toFixed(0)} and ${Math.max(...underPages).toFixed(0)} ms)`,
    );
    expect(attacks.cpu / pages.cpu).toBeLessThanOrEqual(4);
    // Unguarded, each attack request held the event loop for about 90 pages of CPU, so /healthz
    // waited on the order of one attack request; guarded, it waits as it does beside page traffic.
    expect(attackMedian).toBeLessThanOrEqual(pagesMedian * 3 + pages.wall);
  } finally {
    await app.stop();
  }
});
