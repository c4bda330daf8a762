/**
 * The table e2e/fixtures/routes/shapes/stored-list.tsx reads, in a Postgres a spec started
 * (test-support/database-servers.ts): two shapes of `owner`, one of someone else.
 */
import pg from "pg";

export async function createShapes(url: string, owner: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "CREATE TABLE shapes (id serial PRIMARY KEY, name text NOT NULL, owner text NOT NULL)",
    );
    await client.query(
      "INSERT INTO shapes (name, owner) VALUES ('Circle', $1), ('Square', $1), ('Star', 'other')",
      [owner],
    );
  } finally {
    await client.end();
  }
}
