import { readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { closeServer, disarmClose } from "./server-close";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";

adviseOnFailure(ADAPTER_ADVICE("server-close.ts"));

const serveRequire = createRequire(createRequire(import.meta.url).resolve("@remix-run/serve/package.json"));

describe("what the close adapter assumes of remix-serve", () => {
  it("remix-serve calls its server's own close on SIGTERM and SIGINT (the call disarmClose makes harmless)", () => {
    const cli = readFileSync(serveRequire.resolve("./dist/cli.js"), "utf8");
    // `server.close(…)` (remix-serve) or `server?.close(…)` (react-router-serve).
    expect(cli).toMatch(/\["SIGTERM", "SIGINT"\]\.forEach[\s\S]{0,120}server\??\.close\(/);
  });
});

describe("disarmClose and closeServer", () => {
  it("a disarmed server keeps accepting through close(); closeServer still closes it", async () => {
    const server = http.createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    disarmClose([server]);
    server.close();
    expect(await (await fetch(url, { headers: { Connection: "close" } })).text()).toBe("ok");
    await new Promise<void>((resolve) => closeServer(server, resolve));
    expect(server.listening).toBe(false);
  });
});
