/**
 * Standalone Sentry recorder for local development (`npm run sentry:recorder`):
 *
 *   npx tsx test-support/sentry-recorder-cli.ts [--port 8969] [--project 1] [--json]
 *
 * stdout: first line `SENTRY_DSN=<dsn>` (paste it into the app's env), then one line
 * per received item, e.g. `12:00:01.234 [1] event [error] TypeError: boom digest=123`.
 * With --json, stdout is only the full view, one JSON line per item (tags, contexts,
 * frames, spans: sentry-recorder/json-lines.ts), for `jq`; the DSN line and the
 * one-line summaries go to stderr. stderr: status and usage messages too.
 * Ctrl-C / SIGTERM stops it cleanly.
 */
import { itemJsonLines, startRecorder } from "./sentry-recorder.js";

interface CliOptions {
  port: number;
  project: string;
  json: boolean;
}

const USAGE = "usage: tsx test-support/sentry-recorder-cli.ts [--port 8969] [--project 1] [--json]";

/** Accepts `--name value`, `--name=value` and the flag `--json`; throws on anything else. */
function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8969, project: "1", json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (arg === "--json") {
      options.json = true;
      continue;
    }
    const [name = "", inlineValue] = arg.split(/=(.*)/s, 2);
    if (name !== "--port" && name !== "--project") throw new Error(`unknown argument: ${arg}`);
    const value = inlineValue ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`missing value for ${name}`);
    if (name === "--port") options.port = parsePort(value);
    else options.project = value;
  }
  return options;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`invalid port: ${value}`);
  return port;
}

/** `HH:MM:SS.mmm` local time, enough to correlate with app logs. */
function timestamp(): string {
  const d = new Date();
  const pad = (n: number, w = 2): string => String(n).padStart(w, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }

  // With --json, stdout carries the JSON lines alone: everything for a person goes to stderr.
  const human = options.json ? process.stderr : process.stdout;
  const recorder = await startRecorder({
    port: options.port,
    log: (line) => human.write(`${timestamp()} ${line}\n`),
    onEnvelope: options.json
      ? (envelope) => {
          for (const line of itemJsonLines(envelope)) process.stdout.write(`${line}\n`);
        }
      : undefined,
  });
  human.write(`SENTRY_DSN=${recorder.dsn(options.project)}\n`);
  process.stderr.write(`sentry-recorder listening on ${recorder.origin} (Ctrl-C to stop)\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal means the user is impatient: don't wait for close().
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`\n${signal}: ${recorder.requestCount()} envelope request(s) received, stopping\n`);
    recorder.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while closing: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  const hint = e.code === "EADDRINUSE" ? " (port in use; pass --port N, or --port 0 for a random one)" : "";
  process.stderr.write(`sentry-recorder: ${e.message}${hint}\n`);
  process.exit(1);
});
