/** `npm run dev -- --spotlight`: Sentry's Spotlight beside the dev server (docs/developing.md). Only erasable TypeScript. */
import { ensureInstalled, startSidecar } from "../../tools/spotlight/start.ts";

/** Spotlight's sidecar says who it is on every answer. */
const SPOTLIGHT_SERVER = "spotlight-by-sentry";
const THIS_MACHINE = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The flag turns it on, at Spotlight's default URL unless SENTRY_SPOTLIGHT already names one. */
export function requestSpotlight(): void {
  if (!/^https?:/i.test(process.env.SENTRY_SPOTLIGHT?.trim() ?? "")) process.env.SENTRY_SPOTLIGHT = "on";
}

function stop(message: string): never {
  console.error(`npm run dev: ${message}`);
  process.exit(1);
}

async function whoAnswers(origin: string): Promise<"spotlight" | "another server" | "nothing"> {
  try {
    const response = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.headers.get("x-powered-by") === SPOTLIGHT_SERVER ? "spotlight" : "another server";
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED"
      ? "nothing"
      : "another server";
  }
}

/** The Spotlight already at `sidecarUrl`, or one started there that ends with this process. */
export async function useSpotlight(sidecarUrl: string, root: string): Promise<void> {
  const url = new URL(sidecarUrl);
  const answer = await whoAnswers(url.origin);
  if (answer === "spotlight") {
    console.log(`  ➜  Spotlight: ${url.origin}/ (already running)`);
    return;
  }
  if (answer === "another server") {
    stop(
      `${url.origin} is not Spotlight: stop what listens there, or set SENTRY_SPOTLIGHT to a free port's URL`,
    );
  }
  if (url.protocol !== "http:" || !THIS_MACHINE.has(url.hostname)) {
    stop(
      `no Spotlight answers at ${url.origin}, and only an http:// one on this machine can be started here`,
    );
  }
  try {
    await ensureInstalled();
    const sidecar = await startSidecar({ port: Number(url.port || 80), cwd: root });
    console.log(
      `  ➜  Spotlight: http://${url.hostname}:${sidecar.port}/ (started here: ends with npm run dev)`,
    );
  } catch (error) {
    stop((error as Error).message);
  }
}
