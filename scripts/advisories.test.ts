/**
 * SECURITY.md's advisory table, held against the lock: a package marked
 * "fixed by version" must not be installed anywhere (nested copies included)
 * at a version in its affected range, and a guarded advisory's tests must
 * exist. A downgrade, an override dropped or a regenerated lock fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

interface Advisory {
  advisory: string;
  packageName: string;
  affected: string;
  status: string;
  provenBy: string[];
}

/** The rows of the table under "## Advisories against what we ship"; "same" repeats the row above's advisory. */
export function advisoryRows(markdown: string): Advisory[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Advisories against what we ship"));
  if (!section) throw new Error('SECURITY.md has no "Advisories against what we ship" section');
  const rows: Advisory[] = [];
  for (const line of section.split("\n")) {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells.length !== 6 || !/^(\[GHSA-|same$)/.test(cells[0]!)) continue;
    const [advisory, packageName, affected, , status, provenBy] = cells as [string, ...string[]];
    rows.push({
      advisory: advisory === "same" ? rows.at(-1)!.advisory : /GHSA-[\w-]+/.exec(advisory)![0],
      packageName: packageName!.replace(/`/g, ""),
      affected: affected!.replace(/`/g, ""),
      status: status!,
      provenBy: [...provenBy!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
    });
  }
  return rows;
}

/** Every version of `name` the lock installs, with where (`node_modules/a/node_modules/name`). */
export function lockedVersions(lock: { packages: Record<string, { version?: string }> }, name: string) {
  return Object.entries(lock.packages)
    .filter(([where]) => where === `node_modules/${name}` || where.endsWith(`/node_modules/${name}`))
    .map(([where, entry]) => ({ where, version: entry.version! }));
}

/** The installs of a "fixed" row's package that are still in its affected range. */
export function stillAffected(row: Advisory, lock: Parameters<typeof lockedVersions>[0]) {
  return lockedVersions(lock, row.packageName).filter(({ version }) =>
    semver.satisfies(version, row.affected),
  );
}

const rows = advisoryRows(readFileSync(path.join(ROOT, "SECURITY.md"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as Parameters<
  typeof lockedVersions
>[0];

describe("SECURITY.md's advisories against the lock", () => {
  it("lists the advisories of the Remix 2 line", () => {
    const listed = new Set(rows.map((row) => row.advisory));
    for (const id of [
      "GHSA-jjmj-jmhj-qwj2",
      "GHSA-chx6-hx7r-mcp5",
      "GHSA-wrjc-x8rr-h8h6",
      "GHSA-337j-9hxr-rhxg",
      "GHSA-rxv8-25v2-qmq8",
    ])
      expect(listed).toContain(id);
    for (const row of rows)
      expect(semver.validRange(row.affected), `${row.advisory} ${row.affected}`).not.toBeNull();
  });

  for (const row of rows.filter((candidate) => candidate.status.startsWith("fixed"))) {
    it(`${row.advisory}: no ${row.packageName} in ${row.affected}`, () => {
      expect(lockedVersions(lock, row.packageName).length, "the package is in the lock").toBeGreaterThan(0);
      expect(stillAffected(row, lock)).toEqual([]);
    });
  }

  for (const row of rows.filter((candidate) => candidate.status.startsWith("guarded"))) {
    it(`${row.advisory}: guarded, and its tests exist`, () => {
      expect(row.provenBy.length).toBeGreaterThan(0);
      for (const file of row.provenBy) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    });
  }

  it("catches an affected version anywhere in a lock, nested copies too", () => {
    const fixedRow = rows.find((row) => row.status.startsWith("fixed"))!;
    const affected = semver.minVersion(fixedRow.affected)!.version;
    const outside = lockedVersions(lock, fixedRow.packageName)[0]!.version;
    const nested = `node_modules/some-package/node_modules/${fixedRow.packageName}`;
    const downgraded = {
      packages: {
        [`node_modules/${fixedRow.packageName}`]: { version: outside },
        [nested]: { version: affected },
      },
    };
    expect(stillAffected(fixedRow, downgraded)).toEqual([{ where: nested, version: affected }]);
  });
});
