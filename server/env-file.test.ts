import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadEnvFile } from "./env-file";

// Node's loader writes to process.env itself; each test uses names of its own and removes them.
const names = ["ENV_FILE_TEST_ONLY_IN_FILE", "ENV_FILE_TEST_IN_BOTH"];
const dirs: string[] = [];
afterEach(() => {
  names.forEach((name) => delete process.env[name]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "env-file-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("loadEnvFile", () => {
  it("reads .env from the working directory; the real environment wins over the file", () => {
    const dir = dirWith({
      ".env": "ENV_FILE_TEST_ONLY_IN_FILE=from-file\nENV_FILE_TEST_IN_BOTH=from-file\n",
    });
    process.env.ENV_FILE_TEST_IN_BOTH = "from-environment";
    expect(loadEnvFile({}, dir)).toBe(".env");
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBe("from-file");
    expect(process.env.ENV_FILE_TEST_IN_BOTH).toBe("from-environment");
  });

  it("reads nothing when there is no .env", () => {
    expect(loadEnvFile({}, dirWith({}))).toBeNull();
  });

  it("reads the file ENV_FILE names, and none when it is empty", () => {
    const dir = dirWith({
      "other.env": "ENV_FILE_TEST_ONLY_IN_FILE=other\n",
      ".env": "ENV_FILE_TEST_IN_BOTH=dot\n",
    });
    expect(loadEnvFile({ ENV_FILE: "" }, dir)).toBeNull();
    expect(process.env.ENV_FILE_TEST_IN_BOTH).toBeUndefined();
    expect(loadEnvFile({ ENV_FILE: "other.env" }, dir)).toBe("other.env");
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBe("other");
  });

  it("refuses a missing file that ENV_FILE names, with one line naming it", () => {
    expect(() => loadEnvFile({ ENV_FILE: "missing.env" }, dirWith({}))).toThrow(
      "Invalid environment: ENV_FILE names a file that does not exist: missing.env",
    );
  });
});
