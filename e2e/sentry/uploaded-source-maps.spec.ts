/**
 * Readable stacks in Sentry, from what a release build really uploads: `npm run build:e2e`
 * uploaded its source maps to a stand-in of Sentry's upload API (e2e/fixtures/sentry-upload.ts).
 * Every browser chunk served carries one debug id whose map went up under the release, and no
 * map is left to serve; a browser error thrown in a route component resolves, through the
 * uploaded maps, to the route's own line. A server error's frames name that line already: Node
 * maps them through the server's maps, which stay in the build and are never served
 * (pages/security.spec.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, fromNowOn, isErrorEvent, settledItems, test } from "../support/spec-helpers";
import { E2E_RELEASE, uploadRecordPath } from "../fixtures/sentry-upload";
import { servedFiles, uploadProblems } from "../../test-support/sentry-upload/check";
import { emptyRecord, type UploadRecord } from "../../test-support/sentry-upload/record";
import { resolveFrame, type Frame } from "../../test-support/sentry-upload/resolve";

const BUILD = "build-e2e";
const ROUTES = "e2e/fixtures/routes";

test.use({ serverStarts: 1 }); // its appEnv
// The release the image's environment gives the server, the one its build uploaded for.
test.use({ appEnv: { SENTRY_RELEASE: E2E_RELEASE } });

/** The stand-in's record; none when the build called it not once (the framework empties the folder first). */
function uploaded(): UploadRecord {
  const file = uploadRecordPath(BUILD);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as UploadRecord) : emptyRecord();
}

/** The line of `text` in a fixture route: where its error is thrown. */
function lineIn(route: string, text: string): number {
  const lines = readFileSync(path.join(ROUTES, route), "utf8").split("\n");
  const found = lines.filter((line) => line.includes(text));
  expect(found, `${text} in ${route}`).toHaveLength(1);
  return lines.indexOf(found[0]!) + 1;
}

test("every browser chunk served has one debug id, its map uploaded under the release; no map is left", () => {
  const record = uploaded();
  expect(uploadProblems(servedFiles(`${BUILD}/client`), record, E2E_RELEASE)).toEqual([]);
  const files = record.bundles.flatMap((bundle) => bundle.files);
  console.log(
    `upload: ${record.requests.length} requests, releases ${record.releases.map((r) => r.version).join(", ")}; ` +
      `${record.bundles.length} bundles under ${record.bundles.map((b) => b.release).join(", ")}: ` +
      `${files.filter((file) => file.type === "minified_source").length} files and ` +
      `${files.filter((file) => file.type === "source_map").length} maps, by debug id`,
  );
});

test("a browser error in a route component resolves through the uploaded maps to the route's line", async ({
  page,
  recorder,
}) => {
  const fresh = fromNowOn(recorder);
  await page.goto("/fixtures/client-render-error");
  const [event] = await settledItems(recorder, fresh(isErrorEvent), 1);
  const payload = event!.payload;
  expect(payload.release).toBe(E2E_RELEASE);
  const top = payload.exception.values.at(-1).stacktrace.frames.at(-1) as Frame;
  const resolved = resolveFrame(top, payload.debug_meta, uploaded(), payload.release);
  console.log(`browser top frame ${top.filename}:${top.lineno}:${top.colno} →`, resolved);
  expect(resolved).toEqual({
    source: expect.stringMatching(/(^|\/)e2e\/fixtures\/routes\/client-render-error\.tsx$/),
    line: lineIn("client-render-error.tsx", 'throw new Error("Fixture: client render failed")'),
  });
});

test("a server error in a loader names the route's file and line, and nothing maps it again", async ({
  page,
  recorder,
}) => {
  const fresh = fromNowOn(recorder);
  expect((await page.goto("/fixtures/loader-error"))?.status()).toBe(500);
  const [event] = await settledItems(recorder, fresh(isErrorEvent), 1);
  const payload = event!.payload;
  expect([payload.platform, payload.release]).toEqual(["node", E2E_RELEASE]);
  const top = payload.exception.values.at(-1).stacktrace.frames.at(-1) as Frame;
  console.log(`server top frame ${top.filename}:${top.lineno}:${top.colno}`);
  expect(top.filename).toMatch(/\/e2e\/fixtures\/routes\/loader-error\.tsx$/);
  expect(top.lineno).toBe(lineIn("loader-error.tsx", 'throw new Error("Fixture: loader failed'));
  // Sentry maps a frame whose file has a debug id; this one is already the source.
  const images = (payload.debug_meta?.images ?? []) as { code_file?: string }[];
  expect(images.filter((image) => image.code_file === top.filename)).toEqual([]);
});
