/**
 * Reads a V8 CPU profile (`node --cpu-prof`) into self time per request: per
 * function and per package, over the samples taken in a time window.
 */

import { SERVER_SDK_CHUNK } from "../../app/monitoring/server-sdk.server";

/** The parts of a `.cpuprofile` this reads (Chrome DevTools protocol, Profiler.Profile). */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  /** Microseconds, V8's monotonic clock. */
  startTime: number;
  endTime: number;
  /** Node id of each sample. */
  samples: number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  timeDeltas: number[];
}

/** The server SDK, bundled into a chunk of the build (vite/plugins.ts). */
export const BUNDLED_SDK = "@sentry/node (bundled)";

/** The package (`@scope/name` or `name`) for a file under node_modules, `node` for Node's own, the build, or the frame's kind. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node";
  if (SERVER_SDK_CHUNK.test(url)) return BUNDLED_SDK;
  const modules = url.lastIndexOf("/node_modules/");
  if (modules !== -1) {
    const [scope, name] = url.slice(modules + "/node_modules/".length).split("/");
    return scope!.startsWith("@") ? `${scope}/${name}` : scope!;
  }
  const build = /\/(build[^/]*)\/server\//.exec(url);
  return build ? `app (${build[1]})` : url.replace(/^file:\/\//, "");
}

export interface ProfileSummary {
  markdown: string;
  /** How the window was applied. */
  note: string;
  /** Sampled CPU ms per request, idle excluded. */
  busyMsPerRequest: number;
  /** Self time of every `@sentry/*` package, per request. */
  sdkMsPerRequest: number;
  functions: { name: string; where: string; msPerRequest: number }[];
  packages: { name: string; msPerRequest: number }[];
  /** The app's own functions (frames in a build's files) by inclusive time: themselves and what they call. */
  appInclusive: { name: string; where: string; msPerRequest: number }[];
  /** The SDK's own time and the Node and V8 work it calls (not the app it calls back), by its outermost frame. */
  sdkInclusive: { name: string; where: string; msPerRequest: number }[];
}

const isSdkFrame = (url: string) => url.includes("/node_modules/@sentry/") || SERVER_SDK_CHUNK.test(url);
/** A frame of a package or the app, which a sample below it is charged to; not Node's or V8's own. */
const isOwnedFrame = (url: string) => url.includes("/node_modules/") || isAppFrame(url) || isSdkFrame(url);

/** A frame of the app's own code: a file of a build directory (`build-bench-1/server/index.js`). */
const isAppFrame = (url: string) => /\/build[^/]*\/server\//.test(url) && !SERVER_SDK_CHUNK.test(url);

export function summarizeProfile(
  profile: CpuProfile,
  { from, to, requests, top }: { from: number; to: number; requests: number; top: number },
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // The window applies only if it lies inside the profile (same clock); else every sample counts.
  const windowed = from >= profile.startTime && to <= profile.endTime + 1_000_000;
  const note = windowed
    ? `samples taken while the measured requests ran (${((to - from) / 1000).toFixed(0)} ms)`
    : "the whole profile (start-up and warm-up included): the measurement window was outside it";
  const self = new Map<string, { name: string; where: string; pkg: string; us: number }>();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, { name: string; where: string; us: number }>();
  const sdkEntries = new Map<string, { name: string; where: string; us: number }>();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (windowed && (time < from || time > to)) return;
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") return;
    // The sample's weight: the time until the next sample, as DevTools counts it.
    const weight = profile.timeDeltas[index + 1] ?? 0;
    const name = frame.functionName || "(anonymous)";
    const where = frame.url ? `${frame.url.replace(/^.*\/node_modules\//, "")}:${frame.lineNumber + 1}` : "";
    const key = `${name} ${where}`;
    const entry = self.get(key) ?? { name, where, pkg: packageOf(frame.url, name), us: 0 };
    entry.us += weight;
    self.set(key, entry);
    // Inclusive time of the app's frames on this sample's stack, each counted once (recursion).
    const seen = new Set<string>();
    let sdkEntry: CpuProfile["nodes"][number]["callFrame"] | undefined;
    let charged = false; // past the nearest owned frame, and the SDK's run of frames above it
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
      const callFrame = byId.get(node)?.callFrame;
      if (callFrame && !charged && isOwnedFrame(callFrame.url)) {
        if (isSdkFrame(callFrame.url)) sdkEntry = callFrame;
        else charged = true;
      }
      if (!callFrame || !isAppFrame(callFrame.url)) continue;
      const appName = callFrame.functionName || "(anonymous)";
      const appWhere = `${callFrame.url.replace(/^.*\/(build[^/]*\/server\/)/, "$1")}:${callFrame.lineNumber + 1}`;
      const appKey = `${appName} ${appWhere}`;
      if (seen.has(appKey)) continue;
      seen.add(appKey);
      const total = inclusive.get(appKey) ?? { name: appName, where: appWhere, us: 0 };
      total.us += weight;
      inclusive.set(appKey, total);
    }
    if (sdkEntry) {
      const sdkName = sdkEntry.functionName || "(anonymous)";
      const sdkWhere = `${sdkEntry.url.replace(/^.*\/(node_modules|server\/assets)\//, "")}:${sdkEntry.lineNumber + 1}`;
      const entry = sdkEntries.get(`${sdkName} ${sdkWhere}`) ?? { name: sdkName, where: sdkWhere, us: 0 };
      entry.us += weight;
      sdkEntries.set(`${sdkName} ${sdkWhere}`, entry);
    }
  });
  const perRequest = (us: number) => us / 1000 / requests;
  const functions = [...self.values()]
    .sort((a, b) => b.us - a.us)
    .map(({ name, where, us }) => ({ name, where, msPerRequest: perRequest(us) }));
  const packageTotals = new Map<string, number>();
  for (const entry of self.values())
    packageTotals.set(entry.pkg, (packageTotals.get(entry.pkg) ?? 0) + entry.us);
  const packages = [...packageTotals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => ({ name, msPerRequest: perRequest(us) }));
  const busyMsPerRequest = functions.reduce((sum, f) => sum + f.msPerRequest, 0);
  const appInclusive = [...inclusive.values()]
    .sort((a, b) => b.us - a.us)
    .map(({ name, where, us }) => ({ name, where, msPerRequest: perRequest(us) }));
  const sdkInclusive = [...sdkEntries.values()]
    .sort((a, b) => b.us - a.us)
    .map(({ name, where, us }) => ({ name, where, msPerRequest: perRequest(us) }));
  const sdkTotal = sdkInclusive.reduce((sum, f) => sum + f.msPerRequest, 0);
  const share = (ms: number) => `${((ms / busyMsPerRequest) * 100).toFixed(1)} %`;
  // The SDK's own code (self time of every @sentry/* package), the figure the cost goals compare.
  const sdkMsPerRequest = packages
    .filter((p) => p.name.startsWith("@sentry/"))
    .reduce((sum, p) => sum + p.msPerRequest, 0);
  const markdown = [
    `Busy (sampled, idle excluded): ${busyMsPerRequest.toFixed(3)} CPU ms per request on the main thread.`,
    "",
    "| self ms/req | share | function | where |",
    "| --: | --: | --- | --- |",
    ...functions
      .slice(0, top)
      .map((f) => `| ${f.msPerRequest.toFixed(4)} | ${share(f.msPerRequest)} | \`${f.name}\` | ${f.where} |`),
    "",
    "| self ms/req | share | package |",
    "| --: | --: | --- |",
    ...packages
      .slice(0, 12)
      .map((p) => `| ${p.msPerRequest.toFixed(4)} | ${share(p.msPerRequest)} | ${p.name} |`),
    "",
    `Sentry's SDK (every \`@sentry/*\` package, self time): ${sdkMsPerRequest.toFixed(4)} ms per request, ${share(sdkMsPerRequest)}.`,
    "",
    `With the Node and V8 work it calls, not the app's it calls back (by its outermost frame): ${sdkTotal.toFixed(4)} ms, ${share(sdkTotal)}.`,
    "",
    "| total ms/req | share | the SDK's entry | where |",
    "| --: | --: | --- | --- |",
    ...sdkInclusive
      .slice(0, top)
      .map((f) => `| ${f.msPerRequest.toFixed(4)} | ${share(f.msPerRequest)} | \`${f.name}\` | ${f.where} |`),
    "",
    "The app's own functions by inclusive time (themselves and everything they call, SDK included):",
    "",
    "| total ms/req | share | function | where |",
    "| --: | --: | --- | --- |",
    ...appInclusive
      .slice(0, top)
      .map((f) => `| ${f.msPerRequest.toFixed(4)} | ${share(f.msPerRequest)} | \`${f.name}\` | ${f.where} |`),
  ].join("\n");
  return {
    markdown,
    note,
    busyMsPerRequest,
    sdkMsPerRequest,
    functions,
    packages,
    appInclusive,
    sdkInclusive,
  };
}
