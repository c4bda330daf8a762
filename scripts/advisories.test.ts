/**
 * SECURITY.md's advisory table, held against the lock and the audit gate's
 * list (audit-ci.json). The statuses and what each promises are described
 * above the table; a downgrade, an override dropped, a regenerated lock, a
 * guard claimed in one place and missing from the other, all fail here.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface Advisory {
  advisory: string;
  severity: string;
  packageName: string;
  affected: string;
  status: "fixed" | "guarded" | "not installed" | "dev only";
  provenBy: string[];
}
const STATUSES = ["fixed", "guarded", "not installed", "dev only"];

/** The rows of the table under "## Advisories against what we ship"; "same" repeats the row above's advisory. */
export function advisoryRows(markdown: string): Advisory[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Advisories against what we ship"));
  if (!section) throw new Error('SECURITY.md has no "Advisories against what we ship" section');
  const rows: Advisory[] = [];
  for (const line of section.split("\n")) {
    // Cells split on `|` not escaped as `\|` (a range's `||`).
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/\\\|/g, "|"));
    if (cells.length !== 7 || !/^(\[GHSA-|same$)/.test(cells[0]!)) continue;
    const [advisory, severity, packageName, affected, status, , provenBy] = cells as string[];
    if (!STATUSES.includes(status!)) throw new Error(`${line}: unknown status "${status}"`);
    rows.push({
      advisory: advisory === "same" ? rows.at(-1)!.advisory : /GHSA-[\w-]+/.exec(advisory!)![0],
      severity: severity!,
      packageName: packageName!.replace(/`/g, ""),
      affected: affected!.replace(/`/g, ""),
      status: status as Advisory["status"],
      provenBy: [...provenBy!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
    });
  }
  return rows;
}

type Lock = { packages: Record<string, { version?: string; dev?: boolean }> };

/** Every copy of `name` the lock installs, with where (`node_modules/a/node_modules/name`). */
export function lockedVersions(lock: Lock, name: string) {
  return Object.entries(lock.packages)
    .filter(([where]) => where === `node_modules/${name}` || where.endsWith(`/node_modules/${name}`))
    .map(([where, entry]) => ({ where, version: entry.version!, dev: entry.dev === true }));
}

/** The copies of a row's package that are in its affected range. */
export function inRange(row: Pick<Advisory, "packageName" | "affected">, lock: Lock) {
  return lockedVersions(lock, row.packageName).filter(({ version }) =>
    semver.satisfies(version, row.affected),
  );
}

/** The gate's list: advisory id → its entry (audit-ci's record, with the tests that prove the guard). */
export function gateList(config: { allowlist: Record<string, GateEntry>[] }): Map<string, GateEntry> {
  return new Map(config.allowlist.flatMap((record) => Object.entries(record)));
}
interface GateEntry {
  active: boolean;
  expiry: string;
  notes: string;
  provenBy: string[];
}

const rows = advisoryRows(readFileSync(path.join(ROOT, "SECURITY.md"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as Lock;
const gate = gateList(JSON.parse(readFileSync(path.join(ROOT, "audit-ci.json"), "utf8")));
const onTheGate = (row: Advisory) =>
  ["high", "critical"].includes(row.severity) && inRange(row, lock).some((copy) => !copy.dev);

describe("SECURITY.md's advisories against the lock", () => {
  it("lists the advisories of the Remix 2 line, each range valid", () => {
    const listed = new Set(rows.map((row) => row.advisory));
    for (const id of [
      "GHSA-rxv8-25v2-qmq8",
      "GHSA-8x6r-g9mw-2r78",
      "GHSA-chx6-hx7r-mcp5",
      "GHSA-49rj-9fvp-4h2h",
    ])
      expect(listed).toContain(id);
    for (const row of rows)
      expect(semver.validRange(row.affected), `${row.advisory} ${row.affected}`).not.toBeNull();
  });

  for (const row of rows) {
    it(`${row.advisory} ${row.packageName}: ${row.status}`, () => {
      const copies = lockedVersions(lock, row.packageName);
      for (const file of row.provenBy) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
      if (row.status === "fixed") {
        expect(copies.length, "the package is in the lock").toBeGreaterThan(0);
        expect(inRange(row, lock)).toEqual([]);
      } else if (row.status === "not installed") {
        expect(copies).toEqual([]);
      } else if (row.status === "dev only") {
        expect(inRange(row, lock).filter((copy) => !copy.dev)).toEqual([]);
      } else {
        expect(row.provenBy.length, "a guard's tests").toBeGreaterThan(0);
        if (onTheGate(row)) {
          const entry = gate.get(row.advisory);
          expect(entry, "on the audit gate's list (audit-ci.json)").toBeDefined();
          expect([...entry!.provenBy].sort()).toEqual([...row.provenBy].sort());
        }
      }
    });
  }

  it("lists every entry of the audit gate as a guarded row, with a reason and a review date", () => {
    for (const [id, entry] of gate) {
      expect(
        rows.some((row) => row.advisory === id && row.status === "guarded"),
        `${id} is guarded in SECURITY.md`,
      ).toBe(true);
      expect(entry.notes.length, `${id}: its reason`).toBeGreaterThan(20);
      expect(Number.isNaN(Date.parse(entry.expiry)), `${id}: its review date`).toBe(false);
    }
  });

  it("a dev-only row: the dev server's own Vite is outside the ranges", () => {
    const viteOfDevServer = createRequire(path.join(ROOT, "server/dev/start.ts"))("vite/package.json") as {
      version: string;
    };
    for (const row of rows.filter((candidate) => candidate.packageName === "vite"))
      expect(semver.satisfies(viteOfDevServer.version, row.affected), row.advisory).toBe(false);
  });

  it("catches an affected version anywhere in a lock, nested copies too", () => {
    const fixedRow = rows.find((row) => row.status === "fixed")!;
    const affected = semver.minVersion(fixedRow.affected)!.version;
    const outside = lockedVersions(lock, fixedRow.packageName)[0]!.version;
    const nested = `node_modules/some-package/node_modules/${fixedRow.packageName}`;
    const downgraded: Lock = {
      packages: {
        [`node_modules/${fixedRow.packageName}`]: { version: outside },
        [nested]: { version: affected },
      },
    };
    expect(inRange(fixedRow, downgraded)).toEqual([{ where: nested, version: affected, dev: false }]);
  });
});
