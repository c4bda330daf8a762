/**
 * The default production build (`npm run build` → build/) has none of the
 * end-to-end fixture routes: every fixture path answers 404 there, for
 * documents and single-fetch requests alike.
 */
import { fixtureRoutes, shapePages } from "../fixtures/routes";
import { SERVER_HOOK_LIMIT_MS, startApp, type AppServer } from "../../test-support/app-server";
import { expect, test } from "../support/spec-helpers";

test.use({ serverStarts: 1 }); // the default build

let app: AppServer;

test.beforeAll(async () => {
  test.setTimeout(SERVER_HOOK_LIMIT_MS);
  app = await startApp({ build: "build" });
});

test.afterAll(async () => {
  await app?.stop();
});

/** A concrete URL for a fixture pattern (`fixtures/items/:id` → `/fixtures/items/1`). */
const concretePath = (pattern: string) => "/" + pattern.replace(/:\w+/g, "1");

test("every fixture path answers 404 in the default build", async ({ request }) => {
  const paths = [...Object.keys(fixtureRoutes).map(concretePath), ...shapePages.map(({ path }) => path)];
  expect(paths.length).toBeGreaterThanOrEqual(10);
  for (const path of paths) {
    const document = await request.get(app.url + path);
    expect(document.status(), path).toBe(404);
    expect(await document.text(), path).toContain("This page could not be found.");
    const data = await request.get(`${app.url}${path}.data`);
    expect(data.status(), `${path}.data`).toBe(404);
    const post = await request.post(app.url + path, { form: { a: "b" } });
    expect(post.status(), `POST ${path}`).toBe(404);
  }
});

test("the default build still serves the start page", async ({ request }) => {
  const response = await request.get(app.url + "/");
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain("Remix + Sentry scaffold");
});

test("the e2e build does serve the fixtures (so the check above can fail)", async ({
  request,
  app: e2eApp,
}) => {
  const response = await request.get(e2eApp.url + "/fixtures/items/1");
  expect(response.status()).toBe(200);
});
