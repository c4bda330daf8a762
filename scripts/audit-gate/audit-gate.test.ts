/**
 * The audit gate (`npm run audit`: audit-ci over npm's own `npm audit`,
 * configured by audit-ci.json), run for real against recorded answers of the
 * registry's audit service, served on 127.0.0.1 (advisory-registry.ts): our
 * CI machine cannot reach the real one. `recordings/today.json` holds the
 * advisories SECURITY.md lists against the packages this lock installs, with
 * each record's own range and severity (the numeric ids are the stand-in's).
 * The rest adds one high advisory nobody has listed, then lists it with a
 * review date ahead and one behind.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdvisoryRegistry, type BulkAdvisories, startAdvisoryRegistry } from "./advisory-registry";

const ROOT = path.resolve(import.meta.dirname, "../..");
const today = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "recordings/today.json"), "utf8"),
) as BulkAdvisories;
const gateConfig = JSON.parse(readFileSync(path.join(ROOT, "audit-ci.json"), "utf8")) as {
  allowlist: Record<string, { active: boolean; expiry: string; notes: string; provenBy: string[] }>[];
};

/** npm reads the whole lock and asks the service; a few seconds here, far more on a loaded machine. */
const GATE_TIMEOUT_MS = 120_000;

let registry: AdvisoryRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

/** Runs `command` in the project with npm pointed at a stand-in answering `answer`. */
async function runGate(
  answer: BulkAdvisories | undefined,
  command: string[],
  env: Record<string, string> = {},
) {
  registry = await startAdvisoryRegistry(answer);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, npm_config_registry: registry.url, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, output, asked: registry.asked };
}

/** A high advisory against a production dependency (zod) that no list has seen. */
const NEW_ID = "GHSA-2222-3333-4444";
const withNewHigh: BulkAdvisories = {
  ...today,
  zod: [
    {
      id: 9001,
      url: `https://github.com/advisories/${NEW_ID}`,
      title: "A new advisory nobody has looked at yet",
      severity: "high",
      vulnerable_versions: "<99.0.0",
      cwe: [],
      cvss: { score: 7.5, vectorString: null },
    },
  ],
};

/** The gate's own command line with the list plus NEW_ID reviewed again by `expiry`. */
function listingNewHigh(dir: string, expiry: string): string[] {
  const config = structuredClone(gateConfig);
  config.allowlist.push({ [NEW_ID]: { active: true, expiry, notes: "guarded (test)", provenBy: [] } });
  const file = path.join(dir, "audit-ci.json");
  writeFileSync(file, JSON.stringify(config));
  return [path.join(ROOT, "node_modules/.bin/audit-ci"), "--config", file];
}

describe("npm run audit", () => {
  it(
    "passes on today's lock, naming the guarded advisories it let through",
    { timeout: GATE_TIMEOUT_MS },
    async () => {
      const { code, output, asked } = await runGate(today, ["npm", "run", "audit"]);
      expect(asked.length, "npm asked the configured registry").toBeGreaterThan(0);
      const reported = new Set(Object.values(today).flatMap((advisories) => advisories.map((a) => a.url)));
      for (const id of gateConfig.allowlist.flatMap((record) => Object.keys(record)))
        if (reported.has(`https://github.com/advisories/${id}`))
          expect(output).toMatch(new RegExp(`allowlisted advisories:.*${id}`));
      expect(output).toContain("Passed npm security audit");
      expect(code).toBe(0);
    },
  );

  it(
    "fails on an unlisted high advisory against a production dependency, naming it",
    { timeout: GATE_TIMEOUT_MS },
    async () => {
      const { code, output } = await runGate(withNewHigh, ["npm", "run", "audit"]);
      expect(output).toContain(`https://github.com/advisories/${NEW_ID}`);
      expect(output).not.toContain("Passed npm security audit");
      expect(code).toBe(1);
    },
  );

  it(
    "asks the service even when npm is set to work offline, and fails when the service does not answer",
    { timeout: GATE_TIMEOUT_MS },
    async () => {
      const offline = await runGate(withNewHigh, ["npm", "run", "audit"], { npm_config_offline: "true" });
      expect(offline.output).toContain(`https://github.com/advisories/${NEW_ID}`);
      expect(offline.code).toBe(1);
      const unanswered = await runGate(undefined, ["npm", "run", "audit"]);
      expect(unanswered.output).not.toContain("Passed npm security audit");
      expect(unanswered.code).toBe(1);
    },
  );

  describe("a listed advisory", () => {
    let dir: string;
    beforeEach(() => void (dir = mkdtempSync(path.join(tmpdir(), "audit-gate-"))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("passes while its review date is ahead", { timeout: GATE_TIMEOUT_MS }, async () => {
      const { code, output } = await runGate(withNewHigh, listingNewHigh(dir, "2999-01-01"));
      expect(output).toMatch(new RegExp(`allowlisted advisories:.*${NEW_ID}`));
      expect(code).toBe(0);
    });

    it("fails once its review date has passed, naming it", { timeout: GATE_TIMEOUT_MS }, async () => {
      const { code, output } = await runGate(withNewHigh, listingNewHigh(dir, "2026-01-01"));
      expect(output).toContain(`https://github.com/advisories/${NEW_ID}`);
      expect(code).toBe(1);
    });
  });
});
