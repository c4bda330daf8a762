/**
 * The start-up goals (bench/README.md, "Goals"): the app with Sentry off against bare Remix, and
 * Sentry on at rate 0 against off, each started afresh every round (1 route), from spawning its
 * start command to its first `GET /` answered, and its resident set then.
 */
import { routeCountBuilds } from "./builds";
import { inTurn, PerRound, type GoalContext, type GoalSection } from "./goal-run";
import type { TargetId } from "./report";
import { memoryMb } from "./servers";
import { startTarget } from "./targets";

const TARGETS: TargetId[] = ["A", "B", "F"];

export function startGoals(context: GoalContext): GoalSection {
  const figures = new PerRound();
  return {
    builds: [routeCountBuilds(1).app, routeCountBuilds(1).baseline],
    async start() {},
    async round(round) {
      for (const id of inTurn(TARGETS, round)) {
        const began = performance.now();
        const server = await startTarget(id, { routes: 1, recorder: context.recorder });
        try {
          await (await fetch(`${server.url}/`)).arrayBuffer();
          figures.add(`${id} ms`, performance.now() - began);
          figures.add(`${id} rss`, memoryMb(server.pid).rss);
        } finally {
          await server.stop();
        }
      }
    },
    rows: () => [
      {
        goal: "start-up to the first page, Sentry off ÷ bare",
        kind: "max",
        bound: 1.2,
        values: figures.ratio("B ms", "A ms"),
      },
      {
        goal: "RSS once started, Sentry off ÷ bare",
        kind: "max",
        bound: 1.2,
        values: figures.ratio("B rss", "A rss"),
      },
      {
        goal: "RSS once started, Sentry on at rate 0 ÷ Sentry off",
        kind: "max",
        bound: 1.3,
        values: figures.ratio("F rss", "B rss"),
      },
    ],
    async stop() {},
  };
}
