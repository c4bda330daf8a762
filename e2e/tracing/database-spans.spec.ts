/**
 * Database spans, on by default (docs/decisions/0079): against a real Postgres and Redis started
 * here (test-support/database-servers.ts), a list loader (e2e/fixtures/routes/shapes/stored-list.tsx)
 * that runs a parameterised query and a Redis SET and GET sends a transaction whose loader span
 * holds one `db` span per query, with the statement and none of the values: not the query's
 * parameter, not the value written to Redis, not either server's password.
 */
import { randomBytes } from "node:crypto";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import {
  missingDatabaseServers,
  startPostgres,
  startRedis,
  type DatabaseServer,
} from "../../test-support/database-servers";
import type { EnvelopeItem, Recorder } from "../../test-support/sentry-recorder";
import {
  expect,
  isTransaction,
  newTrace,
  opOf,
  reportingTo,
  settledItems,
  test,
  traceIdOf,
} from "../support/spec-helpers";
import { createShapes } from "../support/stored-shapes";

test.use({ serverStarts: 3 }); // Postgres, Redis and an app reading them

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
/** What must never reach Sentry: the signed-in owner (the query's parameter) and the passwords. */
const OWNER = `owner-${hex(8)}`;
const POSTGRES_PASSWORD = `pg-${hex(8)}`;
const REDIS_PASSWORD = `redis-${hex(8)}`;
const QUERY = "SELECT id, name FROM shapes WHERE owner = $1 ORDER BY id";

const missing = missingDatabaseServers();
test.skip(Boolean(missing), `database spans need Postgres and Redis: ${missing}`);

let postgres: DatabaseServer | undefined;
let redis: DatabaseServer | undefined;
let app: AppServer | undefined;

test.beforeAll(async ({ recorder }) => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS * 2);
  [postgres, redis] = await Promise.all([
    startPostgres("shapes", POSTGRES_PASSWORD),
    startRedis(REDIS_PASSWORD),
  ]);
  await createShapes(postgres.url, OWNER);
  app = await startApp({
    env: {
      ...reportingTo(recorder),
      E2E_DATABASE_URL: postgres.url,
      E2E_REDIS_URL: redis.url,
    },
  });
});

test.afterAll(async () => {
  await Promise.all([app?.stop(), postgres?.stop(), redis?.stop()]);
});

interface Span {
  span_id: string;
  parent_span_id?: string;
  op?: string;
  description?: string;
  origin?: string;
  data?: Record<string, unknown>;
}

/** Loads the list as the owner, and returns the server transaction of that request. */
async function loadList(recorder: Recorder): Promise<EnvelopeItem> {
  const { traceId, headers } = newTrace();
  const response = await fetch(`${app!.url}/fixtures/shapes/stored`, {
    headers: { ...headers, Cookie: `owner=${OWNER}` },
  });
  expect(response.status).toBe(200);
  const page = await response.text();
  expect(page).toContain("Circle");
  expect(page).toContain("Square");
  expect(page).not.toContain("Star");
  const [transaction, ...more] = await settledItems(
    recorder,
    (item) => isTransaction(item) && opOf(item) === "http.server" && traceIdOf(item) === traceId,
    1,
  );
  expect(more).toEqual([]);
  return transaction!;
}

const spansOf = (item: EnvelopeItem) => (item.payload.spans ?? []) as Span[];
const isDatabaseSpan = (span: Span) => span.op === "db" || span.op?.startsWith("db.") === true;

/** The loader's own queries, each a db span directly under its loader span; every db span is within it. */
function loaderQueries(transaction: EnvelopeItem): Span[] {
  const spans = spansOf(transaction);
  const loaders = spans.filter((span) => span.op === "loader.remix");
  expect(loaders.map((span) => span.description)).toEqual([expect.stringContaining("stored-list")]);
  const loader = loaders[0]!;
  expect(loader.parent_span_id).toBe(transaction.payload.contexts.trace.span_id);
  const byId = new Map(spans.map((span) => [span.span_id, span]));
  const withinLoader = (span: Span): boolean =>
    span.parent_span_id === loader.span_id ||
    (byId.has(span.parent_span_id ?? "") && withinLoader(byId.get(span.parent_span_id!)!));
  // Connecting (pool, Redis handshake) is spans too, nested in the loader's.
  for (const span of spans.filter(isDatabaseSpan)) expect(withinLoader(span), span.description).toBe(true);

  const queries = spans.filter((span) => isDatabaseSpan(span) && span.parent_span_id === loader.span_id);
  const statements = queries
    .filter((span) => span.data?.["db.query.text"] !== undefined)
    .map(({ op, origin, data }) => ({ op, origin, statement: data?.["db.query.text"] }));
  // One span per query, in the loader's order, with the statement and not the values.
  expect(statements).toEqual([
    { op: "db", origin: "auto.db.postgres", statement: QUERY },
    { op: "db.query", origin: "auto.db.redis.native_channel", statement: "set shapes:last-view ?" },
    { op: "db.query", origin: "auto.db.redis.native_channel", statement: "get shapes:last-view" },
  ]);
  expect(queries[queries.length - 3]!.data).toMatchObject({
    "db.system.name": "postgresql",
    "db.namespace": "postgres",
    "db.user": "shapes",
  });
  return queries;
}

test("a loader's queries: one db span each under its loader span, statements without values", async ({
  recorder,
}) => {
  loaderQueries(await loadList(recorder));
  // Once connected (the pool keeps its client, Redis its connection), the three queries are all there is.
  const second = await loadList(recorder);
  expect(spansOf(second).filter(isDatabaseSpan)).toEqual(loaderQueries(second));

  // Nothing the loader read or wrote, nor a password, reached Sentry.
  const wire = recorder.envelopes.map((envelope) => envelope.rawBody.toString("utf8")).join("\n");
  // The wire holds the spans (so the search below is not vacuous), and none of the values.
  expect(wire).toContain("set shapes:last-view ?");
  for (const secret of [OWNER, POSTGRES_PASSWORD, REDIS_PASSWORD]) expect(wire).not.toContain(secret);
});
