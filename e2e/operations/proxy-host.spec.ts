/**
 * A real browser's form post behind a proxy that rewrites `Host` (to the
 * upstream's name) and sends no `X-Forwarded-Host`: the framework sees an
 * `Origin` that is not the `Host` and refuses the post as cross-site. That is
 * a refusal, 403 with one info line and no Sentry event, not a 500 with an
 * error line per post; the same proxy sending `X-Forwarded-Host`
 * lets the post through. The app trusts the proxy (`TRUST_PROXY=loopback`), as
 * an operator behind one sets it: React Router 8 compares `Origin` with the
 * request's URL, whose host is the forwarded one only from a trusted proxy.
 * The proxy is a few lines of node:http on 127.0.0.1.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AppServer } from "../../test-support/app-server";
import {
  expect,
  fromNowOn,
  isErrorEvent,
  settledItems,
  test,
  waitForHydration,
} from "../support/spec-helpers";
import { failureLines } from "../support/refusals";

test.use({ serverStarts: 1 }); // its appEnv

/** A proxy to `app` that sends `Host: app-internal:3000`, and `X-Forwarded-Host` only when told to. */
async function startProxy(app: AppServer, { forwardHost }: { forwardHost: boolean }) {
  const server = http.createServer((request, response) => {
    const headers: http.OutgoingHttpHeaders = { ...request.headers, host: "app-internal:3000" };
    if (forwardHost) headers["x-forwarded-host"] = request.headers.host;
    const upstream = http.request(
      { host: "127.0.0.1", port: app.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The browser keeps its connections to the proxy open: close them too, or `close` waits for them.
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  return { url, close };
}

test.use({ appEnv: { TRUST_PROXY: "loopback" } });

for (const javaScriptEnabled of [false, true]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    for (const forwardHost of [false, true]) {
      test(`a form post through a proxy ${forwardHost ? "that sends" : "without"} X-Forwarded-Host`, async ({
        app,
        page,
        recorder,
      }) => {
        const proxy = await startProxy(app, { forwardHost });
        const since = fromNowOn(recorder);
        const linesBefore = app.logLines().length;
        try {
          await page.goto(`${proxy.url}/fixtures/form`);
          if (javaScriptEnabled) await waitForHydration(page);
          await page.getByLabel("Name", { exact: true }).fill("Ada");
          await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
          const [post] = await Promise.all([
            // The form's post, not the tunnel's: the page load's transaction leaves as the navigation starts.
            page.waitForResponse(
              (r) => r.request().method() === "POST" && r.url().includes("/fixtures/form"),
            ),
            page.getByRole("button", { name: "Send" }).click(),
          ]);
          const lines = app.logLines().slice(linesBefore);
          if (forwardHost) {
            await expect(page).toHaveURL(/\/fixtures\/form\/done$/);
            expect(lines.filter((line) => line.msg === "request refused")).toEqual([]);
          } else {
            expect(post.status()).toBe(403);
            await expect
              .poll(() =>
                app
                  .logLines()
                  .slice(linesBefore)
                  .filter((line) => line.msg === "request refused"),
              )
              .toEqual([
                expect.objectContaining({ level: "info", status: 403, reason: "cross-origin action" }),
              ]);
          }
          expect(failureLines(app.logLines().slice(linesBefore))).toEqual([]);
          expect(await settledItems(recorder, since(isErrorEvent), 0)).toEqual([]);
        } finally {
          await proxy.close();
        }
      });
    }
  });
}
