import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { startAdvisoryRegistry } from "/work/main/scripts/audit-gate/advisory-registry";
const today = JSON.parse(readFileSync("/work/main/scripts/audit-gate/recordings/today.json", "utf8"));
const newHigh = { ...today, zod: [{ id: 9001, url: "https://github.com/advisories/GHSA-2222-3333-4444", title: "new", severity: "high", vulnerable_versions: "<99.0.0", cwe: [], cvss: { score: 7.5, vectorString: null } }] };
const config = JSON.parse(readFileSync("/work/main/audit-ci.json", "utf8"));
config.allowlist[0]["GHSA-rxv8-25v2-qmq8"].expiry = "2026-01-01";
writeFileSync("/tmp/expired-audit-ci.json", JSON.stringify(config));
for (const [name, answer, args] of [["today", today, ["run", "audit"]], ["unlisted high", newHigh, ["run", "audit"]], ["rxv8 past its review date", today, ["exec", "--", "audit-ci", "--config", "/tmp/expired-audit-ci.json"]]] as const) {
  const reg = await startAdvisoryRegistry(answer);
  const r = spawnSync("npm", [...args], { cwd: "/work/main", env: { ...process.env, npm_config_registry: reg.url, NO_COLOR: "1" }, encoding: "utf8" });
  await reg.close();
  const out = (r.stdout + r.stderr).split("\n").filter((l) => /allowlisted|Passed|Failed|GHSA|advisories are|Exiting|vulnerabilit/.test(l)).join("\n");
  console.log(`--- ${name}: exit ${r.status}\n${out}`);
}
