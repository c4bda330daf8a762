/**
 * Malformed requests get a 4xx with a short answer, never a 5xx, and the
 * server keeps serving. (The wider battery lives in e2e/hostile-input/battery.spec.ts.)
 */
import { request as httpRequest } from "node:http";
import { expect, test } from "../support/spec-helpers";

/** Sends a raw request line, bypassing clients that would refuse or normalise it. */
function rawRequest(port: number, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

test("malformed percent-encoding in the path", async ({ app }) => {
  for (const method of ["GET", "POST", "HEAD"]) {
    const status = await rawRequest(app.port, method, "/%E0%A4%A");
    expect(status, method).toBeGreaterThanOrEqual(400);
    expect(status, method).toBeLessThan(500);
  }
  // Naming the request (traced on arrival) printed no warning of the framework's matching.
  expect(app.output()).not.toContain("could not be decoded");
});

test("a 10 KB path", async ({ app }) => {
  const status = await rawRequest(app.port, "GET", "/" + "a".repeat(10 * 1024));
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
});

test("an unknown method", async ({ app }) => {
  const status = await rawRequest(app.port, "BREW", "/");
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
});

test("a .data request with a bogus _routes value", async ({ request }) => {
  for (const routes of ["nope", "root,nope", "%00", ",,,", "../../etc/passwd"]) {
    const response = await request.get(`/fixtures/items/1.data?_routes=${encodeURIComponent(routes)}`);
    expect(response.status(), routes).toBe(400);
  }
});

test.afterEach(async ({ request, app }) => {
  // Whatever the test sent, the server is still up and serving pages.
  const response = await request.get(app.url + "/");
  expect(response.status()).toBe(200);
});
