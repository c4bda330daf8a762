/**
 * The app's bench build with span streaming: a copy of `build-bench-<n>` whose server bundle says
 * `traceLifecycle: "stream"` where the app says `"static"` (docs/decisions/0057). A copy, not an
 * option: the lifecycle is no product setting, and the SDK's own SENTRY_TRACE_LIFECYCLE is ignored
 * while the app sets it explicitly.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./servers";

const STATIC = /traceLifecycle:\s*"static"/g;

/** Makes `<appDir>-stream` from `appDir` (relative to the root); fails unless the option is found once. */
export function makeStreamingVariant(appDir: string): string {
  const variant = `${appDir}-stream`;
  const target = path.join(ROOT, variant);
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(ROOT, appDir), target, { recursive: true });
  let found = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.(m?js)$/.test(entry.name)) {
        const source = readFileSync(file, "utf8");
        const changed = source.replace(STATIC, () => (found++, 'traceLifecycle: "stream"'));
        if (changed !== source) writeFileSync(file, changed);
      }
    }
  };
  visit(path.join(target, "server"));
  if (found !== 1)
    throw new Error(`${appDir}/server: expected traceLifecycle: "static" once, found it ${found} times`);
  return variant;
}
