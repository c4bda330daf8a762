/** The dev boot's build keeps every export of a module the boot imports, used by the boot or not (Rolldown drops unused ones). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, type Rollup } from "vite";
import { afterAll, expect, it } from "vitest";
import { everyExportKept } from "./boot.ts";

const root = mkdtempSync(path.join(tmpdir(), "dev-boot-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("keeps the exports the boot does not use, for the app that imports them", async () => {
  writeFileSync(path.join(root, "boot.ts"), 'import { used } from "./shared.ts";\nconsole.log(used());\n');
  writeFileSync(
    path.join(root, "shared.ts"),
    "export const used = () => 1;\nexport function forTheApp(): number {\n  return 2;\n}\n",
  );
  const result = (await build({
    configFile: false,
    logLevel: "silent",
    plugins: [everyExportKept(root)],
    build: {
      ssr: path.join(root, "boot.ts"),
      write: false,
      rollupOptions: { treeshake: false, output: { preserveModules: true, preserveModulesRoot: root } },
    },
  })) as Rollup.RollupOutput;
  const shared = result.output.find((chunk) => chunk.type === "chunk" && chunk.fileName === "shared.js");
  expect(shared).toMatchObject({ exports: ["forTheApp", "used"] });
  expect((shared as Rollup.OutputChunk).code).toContain("function forTheApp");
});
