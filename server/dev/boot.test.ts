/** The dev boot's build keeps every export of a module the boot imports, used by the boot or not (Rolldown drops unused ones). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Rollup } from "vite";
import { afterAll, expect, it } from "vitest";
import { buildDevBoot } from "./boot.ts";

const root = mkdtempSync(path.join(tmpdir(), "dev-boot-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("keeps the exports the boot does not use, for the app that imports them", async () => {
  mkdirSync(path.join(root, "server"));
  mkdirSync(path.join(root, "app"));
  writeFileSync(
    path.join(root, "server/boot.ts"),
    'import { used } from "~/shared";\nconsole.log(used());\n',
  );
  writeFileSync(
    path.join(root, "app/shared.ts"),
    "export const used = () => 1;\nexport function forTheApp(): number {\n  return 2;\n}\n",
  );
  const { output } = await buildDevBoot(root);
  const shared = output.find((chunk) => chunk.type === "chunk" && chunk.fileName === "app/shared.js");
  expect(shared).toMatchObject({ exports: ["forTheApp", "used"] });
  expect((shared as Rollup.OutputChunk).code).toContain("function forTheApp");
});
