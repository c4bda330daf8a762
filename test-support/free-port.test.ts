import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, onFreePort, START_TRIES } from "./free-port";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real listen on 127.0.0.1, failing as a server does when its port is taken. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(port));
  });
}
const taken = (error: unknown) => (error as NodeJS.ErrnoException).code === "EADDRINUSE";

describe("onFreePort", () => {
  it("gives a start whose port was bound meanwhile another port", async () => {
    const tried: number[] = [];
    const port = await onFreePort(async (port) => {
      tried.push(port);
      // Someone else binds the first port between the probe and the start.
      if (tried.length === 1) await listenOn(port);
      return listenOn(port);
    }, taken);
    expect(tried).toHaveLength(2);
    expect(port).toBe(tried[1]);
    expect(tried[1]).not.toBe(tried[0]);
  });

  it(`stops after ${START_TRIES} tries, with the last failure`, async () => {
    let tries = 0;
    const start = onFreePort(async (port) => {
      tries++;
      await listenOn(port);
      return listenOn(port);
    }, taken);
    await expect(start).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(tries).toBe(START_TRIES);
  });

  it("does not try again after any other failure", async () => {
    let tries = 0;
    const start = onFreePort(() => {
      tries++;
      return Promise.reject(new Error("exited before it was ready"));
    }, taken);
    await expect(start).rejects.toThrow("exited before it was ready");
    expect(tries).toBe(1);
  });
});

describe("freePort", () => {
  it("names a port nothing listens on", async () => {
    const port = await freePort();
    await expect(listenOn(port)).resolves.toBe(port);
  });
});
