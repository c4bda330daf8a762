/**
 * What http-server.ts assumes of remix-serve, against its real command in a process of its own: the
 * one server it creates is adapted, and no other. If an upgrade stops creating the server where the
 * adapter looks for it, this fails instead of the pre-app handlers (readiness, guards, tunnel)
 * silently vanishing, or reaching servers of the app's own. And what public-lookup.ts assumes: the
 * command's two serve-static layers on Express 4's router stack, the build's client folder's, then
 * `public/`'s; after the boot a file only in `public/` is the app's to answer. And what node-fetch.ts
 * assumes: the command replaces Node's fetch and its classes through `@remix-run/node`'s
 * `installGlobals`, which the boot makes leave them alone. And what built-file-lookup.ts assumes: the
 * command takes `express.static` from Express's module when it runs, so the boot's own is the one used.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT_WITH_PARENT } from "../../test-support/app-server";
import { adviseOnFailure, ADAPTER_ADVICE } from "../../test-support/guard-advice";
import { remixServeCli } from "./http-server";

interface Ports {
  adapted: number[];
  metrics?: number;
  admin?: number;
  /** The static layers of its app before and after the boot dropped the second (public-lookup.ts). */
  staticLayers?: number[][];
  /** Node's globals that are no longer Node's once the command created its server, and whether undici was loaded (node-fetch.ts). */
  replacedGlobals?: string[];
  undiciLoaded?: boolean;
  /** Whether Express's own `static` was back once the command created its server (built-file-lookup.ts). */
  staticRestored?: boolean;
}

/** remix-serve's own command, with remix-serve-test-boot.ts preloaded, serving remix-serve-test-build.ts. */
function remixServe(env: Record<string, string> = {}): Promise<{ ports: Ports; stop: () => void }> {
  const root = path.resolve(import.meta.dirname, "../..");
  const preload = [
    "tsx",
    "./server/adapter/remix-serve-test-boot.ts",
    ...EXIT_WITH_PARENT.split(" ").slice(1),
  ];
  const child = spawn(
    process.execPath,
    [
      ...preload.flatMap((module) => ["--import", module]),
      remixServeCli(),
      "./server/adapter/remix-serve-test-build.ts",
    ],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const stop = () => void child.kill("SIGKILL");
  const ports: Ports = { adapted: [] };
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error("remix-serve did not listen within 60 s")), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      stop();
      reject(new Error(`${error.message}\n${output}`));
    };
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      for (const line of output
        .split("\n")
        .slice(0, -1)
        .filter((text) => text.startsWith("{"))) {
        const port = JSON.parse(line) as Record<string, number> &
          Pick<Ports, "staticLayers" | "replacedGlobals" | "undiciLoaded" | "staticRestored">;
        if (port.adapted && !ports.adapted.includes(port.adapted)) ports.adapted.push(port.adapted);
        Object.assign(ports, {
          metrics: port.metrics ?? ports.metrics,
          admin: port.admin ?? ports.admin,
          staticLayers: port.staticLayers ?? ports.staticLayers,
          replacedGlobals: port.replacedGlobals ?? ports.replacedGlobals,
          undiciLoaded: port.undiciLoaded ?? ports.undiciLoaded,
          staticRestored: port.staticRestored ?? ports.staticRestored,
        });
      }
      // remix-serve's banner comes after its server listens.
      if (ports.metrics && ports.admin && ports.adapted.length > 0 && output.includes("[remix-serve]")) {
        clearTimeout(timer);
        resolve({ ports, stop });
      }
    });
    child.once("exit", (code) => fail(new Error(`remix-serve exited (${code})`)));
  });
}

/** The command's start (remixServe waits up to 60 s for it) and a few requests, with headroom. */
const COMMAND_TIMEOUT_MS = 90_000;

// One start of the real command for every test below; the test build's client folder is `client`.
const client = mkdtempSync(path.join(tmpdir(), "remix-serve-client-"));
let command: Promise<Awaited<ReturnType<typeof remixServe>>> | undefined;
const started = () => {
  writeFileSync(path.join(client, "in-client.txt"), "client");
  return (command ??= remixServe({ TEST_CLIENT_DIR: client }));
};
afterAll(async () => {
  if (command) (await command.catch(() => undefined))?.stop();
  rmSync(client, { recursive: true, force: true });
});

describe("remix-serve's own command", () => {
  adviseOnFailure(ADAPTER_ADVICE("http-server.ts"));

  it("creates its server with Express's app.listen, and adds no listener of its own", () => {
    const cli = readFileSync(remixServeCli(), "utf8");
    expect(cli).toMatch(/let app = express\w*(\["default"\])?\(\);/);
    expect(cli).toMatch(/let server = [^;]*app\.listen\(port/);
    expect(cli).not.toMatch(/server\.(on|addListener|prependListener)\(/);
  });

  it(
    "has its one server adapted; the app's other servers answer untouched, and only its port is reported",
    { timeout: COMMAND_TIMEOUT_MS },
    async () => {
      const { ports } = await started();
      const text = async (port: number | undefined) => (await fetch(`http://127.0.0.1:${port}/front`)).text();
      expect(await text(ports.metrics)).toBe("metrics");
      // Its `request` listener was added after the server was created: it answers alone.
      expect(await text(ports.admin)).toBe("admin");
      // The app's port is reported (with PORT=0, the trace targets' default), though the others listened first.
      expect(ports.adapted).toHaveLength(1);
      expect(await text(ports.adapted[0])).toBe("front");
    },
  );
});

describe("remix-serve's globals", () => {
  adviseOnFailure(ADAPTER_ADVICE("node-fetch.ts"));

  it("are set by @remix-run/node's installGlobals, from the build's single-fetch flag, in its command's source", () => {
    const cli = readFileSync(remixServeCli(), "utf8");
    expect(cli).toMatch(/node\.installGlobals\(\{\s*nativeFetch: build\.future\.v3_singleFetch\s*\}\)/);
    const globals = readFileSync(
      createRequire(remixServeCli()).resolve("@remix-run/node/dist/globals.js"),
      "utf8",
    );
    expect(globals).toMatch(
      /if \(nativeFetch\) \{[^}]*\} = require\("undici"\);\s*global\.File = UndiciFile;/,
    );
  });

  it(
    "after the boot: Node's own fetch, Request, Response, Headers, FormData and File, and no undici loaded",
    { timeout: COMMAND_TIMEOUT_MS },
    async () => {
      const { ports } = await started();
      expect([ports.replacedGlobals, ports.undiciLoaded]).toEqual([[], false]);
    },
  );
});

describe("remix-serve's lookup in the client folder", () => {
  adviseOnFailure(ADAPTER_ADVICE("built-file-lookup.ts"));

  it("is Express's `static`, read from its module as the command creates its app", () => {
    const cli = readFileSync(remixServeCli(), "utf8");
    expect(cli).toMatch(/var express = require\('express'\);/);
    expect(cli).toMatch(
      /app\.use\(build\.publicPath, express__default\["default"\]\.static\(build\.assetsBuildDirectory,/,
    );
  });

  it(
    "after the boot: a file the folder held at start is served, one put there later is the app's to answer; Express's own `static` is back",
    { timeout: COMMAND_TIMEOUT_MS },
    async () => {
      const { ports } = await started();
      expect(ports.staticRestored).toBe(true);
      writeFileSync(path.join(client, "late.txt"), "late");
      const base = `http://127.0.0.1:${ports.adapted[0]}`;
      const atStart = await fetch(`${base}/in-client.txt`);
      expect([atStart.status, await atStart.text()]).toEqual([200, "client"]);
      const late = await fetch(`${base}/late.txt`);
      expect([late.status, await late.text()]).toEqual([404, "document"]);
    },
  );
});

describe("remix-serve's static lookups", () => {
  adviseOnFailure(ADAPTER_ADVICE("public-lookup.ts"));

  it("are the build's client folder, then public/, in its command's source", () => {
    const cli = readFileSync(remixServeCli(), "utf8");
    const lookups = [...cli.matchAll(/\.static\(([^,)]+)/g)].map((match) => match[1]);
    expect(lookups).toEqual(["build.assetsBuildDirectory", '"public"']);
  });

  it(
    "after the boot: one layer, the client folder's; a file only in public/ is the app's to answer",
    { timeout: COMMAND_TIMEOUT_MS },
    async () => {
      // public/robots.txt is the project's own.
      const robots = readFileSync(path.resolve(import.meta.dirname, "../../public/robots.txt"), "utf8");
      const { ports } = await started();
      expect(ports.staticLayers).toEqual([[2], [1]]);
      const base = `http://127.0.0.1:${ports.adapted[0]}`;
      const inClient = await fetch(`${base}/in-client.txt`);
      expect([inClient.status, await inClient.text()]).toEqual([200, "client"]);
      const onlyInPublic = await fetch(`${base}/robots.txt`);
      expect([onlyInPublic.status, await onlyInPublic.text()]).toEqual([404, "document"]);
      expect(robots).not.toBe("document");
    },
  );
});
