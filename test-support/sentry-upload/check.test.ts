/**
 * The upload check on a small real build: Vite and Sentry's plugin upload it to the stand-in,
 * and the check passes; then the failures it exists for, planted in that build's files and record.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sentryVitePlugin } from "@sentry/vite-plugin";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startUploadStandIn } from "../sentry-upload-stand-in";
import { debugIdsOf, servedFiles, uploadProblems, type ServedFile } from "./check";
import { emptyRecord, type UploadRecord } from "./record";
import { resolveFrame } from "./resolve";

const RELEASE = "check-test";
const SOURCE = {
  "main.js": `import("./route.js").then(({ fail }) => {\n  window.fail = fail;\n});\n`,
  "route.js": `export function fail(reason) {\n  if (reason) {\n    throw new Error("route failed: " + reason);\n  }\n}\n`,
};
let dir: string;
let served: ServedFile[];
let record: UploadRecord;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "upload-check-"));
  for (const [name, text] of Object.entries(SOURCE)) writeFileSync(path.join(dir, name), text);
  const standIn = await startUploadStandIn();
  // The CLI's cache of each org's address in a folder of its own, and none of its own reports.
  vi.stubEnv("SENTRY_CONFIG_DIR", path.join(dir, "cli"));
  vi.stubEnv("SENTRY_CLI_NO_TELEMETRY", "1");
  try {
    await build({
      configFile: false,
      root: dir,
      logLevel: "silent",
      build: { outDir: "out", sourcemap: "hidden", rollupOptions: { input: path.join(dir, "main.js") } },
      plugins: [
        sentryVitePlugin({
          ...{ url: standIn.url, authToken: "t", org: "o", project: "p", telemetry: false },
          release: { name: RELEASE },
          sourcemaps: { filesToDeleteAfterUpload: [path.join(dir, "out/**/*.map")] },
        }),
      ],
    });
    record = structuredClone(standIn.record);
  } finally {
    vi.unstubAllEnvs();
    await standIn.close();
  }
  served = servedFiles(path.join(dir, "out"));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the stand-in records what the plugin uploads: a release, and the bundle of each chunk and its map", () => {
  expect(record.releases).toEqual([{ version: RELEASE, projects: ["p"] }]);
  expect(record.requests).toContain("POST /api/0/organizations/o/artifactbundle/assemble/");
  const chunks = served.filter((file) => file.name.endsWith(".js"));
  expect(chunks).toHaveLength(2);
  const uploaded = record.bundles.flatMap((bundle) => bundle.files);
  for (const chunk of chunks) {
    const [id] = debugIdsOf(chunk.content);
    expect(
      uploaded
        .filter((file) => file.debugId === id)
        .map((file) => file.type)
        .sort(),
    ).toEqual(["minified_source", "source_map"]);
  }
  expect(uploadProblems(served, record, RELEASE)).toEqual([]);
});

test("a frame at the throw of a built chunk resolves to the source's line", () => {
  const chunk = served.find((file) => file.content.includes("route failed"))!;
  const lines = chunk.content.split("\n");
  const lineno = lines.findIndex((line) => line.includes("throw"));
  const colno = lines[lineno]!.indexOf("throw") + 1;
  const filename = `http://app.test/${chunk.name}`;
  const debugMeta = {
    images: [{ type: "sourcemap", code_file: filename, debug_id: debugIdsOf(chunk.content)[0] }],
  };
  expect(resolveFrame({ filename, lineno: lineno + 1, colno }, debugMeta, record, RELEASE)).toEqual({
    source: "../../route.js",
    line: 3,
  });
  expect(resolveFrame({ filename, lineno: lineno + 1, colno }, debugMeta, record, "other")).toMatch(/no map/);
});

test("Rolldown's runtime chunk needs one debug id, and no map: Rolldown makes none for its helpers", () => {
  const [chunk] = served.filter((file) => file.name.endsWith(".js"));
  const runtime = {
    name: "assets/rolldown-runtime-B1x2.js",
    content: chunk!.content.replaceAll(debugIdsOf(chunk!.content)[0]!, randomUUID()),
  };
  expect(uploadProblems([...served, runtime], record, RELEASE)).toEqual([]);
  const doubled = { ...runtime, content: runtime.content + chunk!.content };
  expect(uploadProblems([...served, doubled], record, RELEASE)).toEqual([
    expect.stringMatching(/^assets\/rolldown-runtime-B1x2\.js carries 2 debug ids/),
  ]);
});

describe("planted failures", () => {
  test("a chunk with a second debug id, as a second plugin's snippet injects it", () => {
    const [chunk, other] = served.filter((file) => file.name.endsWith(".js"));
    const [id] = debugIdsOf(chunk!.content);
    const snippet = /\(function\(\)\{try\{.*?\}catch\{\}\}\)\(\);/.exec(chunk!.content)![0];
    expect(snippet).toContain(id);
    const doubled = {
      ...chunk!,
      content: chunk!.content.replace(snippet, snippet + snippet.replaceAll(id!, randomUUID())),
    };
    expect(uploadProblems([doubled, other!], record, RELEASE)).toEqual([
      expect.stringMatching(new RegExp(`^${doubled.name} carries 2 debug ids`)),
    ]);
  });

  test("an upload under another release", () => {
    const elsewhere = {
      ...record,
      bundles: record.bundles.map((bundle) => ({ ...bundle, release: "other" })),
    };
    const problems = uploadProblems(served, elsewhere, RELEASE);
    expect(problems).toContain("a bundle was uploaded under release other");
    expect(problems.filter((problem) => problem.includes("no map with its debug id"))).toHaveLength(2);
  });

  test("nothing uploaded", () => {
    expect(uploadProblems(served, emptyRecord(), RELEASE)).toContain("nothing was uploaded");
  });

  test("a map left in the build", () => {
    const map = { name: "assets/main.js.map", content: readFileSync(path.join(dir, "main.js"), "utf8") };
    expect(uploadProblems([...served, map], record, RELEASE)).toEqual([
      `${map.name} is left in the build, to be served`,
    ]);
  });
});
