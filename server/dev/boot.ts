/** One copy of the modules the boot and app share (decision 0073). Run by Node: only erasable TypeScript. */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin, type Rollup } from "vite";

export interface DevBoot<Boot> {
  boot: Boot;
  bootModules: Plugin;
}

/** The boot built one file per module: what `runDevBoot` writes and imports. */
export async function buildDevBoot(root: string): Promise<Rollup.RollupOutput> {
  return (await build({
    configFile: false,
    logLevel: "silent",
    publicDir: false,
    resolve: { alias: { "~": path.join(root, "app") } },
    plugins: [everyExportKept(root)],
    build: {
      ssr: bootEntry(root),
      write: false,
      minify: false,
      rollupOptions: {
        treeshake: false,
        output: { preserveModules: true, preserveModulesRoot: root },
      },
    },
  })) as Rollup.RollupOutput;
}

const bootEntry = (root: string) => path.join(root, "server/boot.ts");

/** One file per module, kept until the process ends: Vite's server side loads them through Node later. */
export async function runDevBoot<Boot>(root: string): Promise<DevBoot<Boot>> {
  const result = await buildDevBoot(root);
  // Inside the project, so its imports of packages resolve as in the build directory.
  const parent = path.join(root, "node_modules/.cache/dev-boot");
  removeKilled(parent);
  const directory = path.join(parent, String(process.pid));
  process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
  const modules = new Map<string, { file: string; exports: string[] }>();
  let entry = "";
  for (const chunk of result.output) {
    if (chunk.type !== "chunk") continue;
    const file = path.join(directory, chunk.fileName);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, chunk.code);
    if (chunk.facadeModuleId === bootEntry(root)) entry = file;
    if (chunk.facadeModuleId?.startsWith(root)) {
      modules.set(chunk.facadeModuleId, { file, exports: chunk.exports });
    }
  }
  const boot = (await import(pathToFileURL(entry).href)) as Boot;
  return { boot, bootModules: bootModules(modules) };
}

/** Each project module an entry, whose exports a bundler keeps: the app imports some the boot does not (Rolldown drops them even untree-shaken). */
function everyExportKept(root: string): Plugin {
  const project = (id: string) =>
    id.startsWith(root + path.sep) && !id.includes(`${path.sep}node_modules${path.sep}`);
  return {
    name: "every-export-kept",
    transform(_code, id) {
      if (project(id)) this.emitFile({ type: "chunk", id, preserveSignature: "strict" });
    },
  };
}

/** `require` of an ES module returns the copy Node already evaluated. The browser still gets the source. */
function bootModules(modules: Map<string, { file: string; exports: string[] }>): Plugin {
  return {
    name: "boot-modules",
    enforce: "pre",
    load(id) {
      const server = this.environment.config.consumer === "server";
      const loaded = server ? modules.get(id.split("?")[0]!) : undefined;
      if (!loaded) return null;
      const lines = [
        'import { createRequire } from "node:module";',
        `const boot = createRequire(${JSON.stringify(loaded.file)})(${JSON.stringify(loaded.file)});`,
        ...loaded.exports.map((name) =>
          name === "default" ? "export default boot.default;" : `export const ${name} = boot.${name};`,
        ),
      ];
      return lines.join("\n");
    },
    hotUpdate({ file }) {
      if (this.environment.config.consumer !== "server" || !modules.has(file)) return;
      this.environment.logger.warn(
        `${path.relative(process.cwd(), file)} is one of the boot's modules, loaded once: restart \`npm run dev\` for the server to use the edit`,
        { timestamp: true },
      );
    },
  };
}

/** What a dev server killed by SIGKILL (no `exit` event) left behind. */
function removeKilled(parent: string): void {
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    if (!isRunning(Number(name))) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
