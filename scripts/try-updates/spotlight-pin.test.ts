import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pinVerdict, SPOTLIGHT, withoutPin } from "./spotlight-pin";

const TOOL = path.resolve(import.meta.dirname, "../../tools/spotlight");

describe("withoutPin: tools/spotlight/package.json as the try installs it", () => {
  it("drops the hono override and puts Spotlight at the version tried, the rest as it was", () => {
    const manifest = {
      dependencies: { [SPOTLIGHT]: "4.11.8" },
      overrides: { hono: "4.12.25", other: "1.0.0" },
    };
    expect(withoutPin(manifest, "4.12.0")).toEqual({
      dependencies: { [SPOTLIGHT]: "4.12.0" },
      overrides: { other: "1.0.0" },
    });
  });

  it("leaves no override at all from the folder's own manifest, whose only one is the pin", () => {
    const manifest = JSON.parse(readFileSync(path.join(TOOL, "package.json"), "utf8")) as Parameters<
      typeof withoutPin
    >[0];
    expect(manifest.overrides).toHaveProperty("hono");
    const unpinned = withoutPin(manifest, manifest.dependencies[SPOTLIGHT]!);
    expect(unpinned).not.toHaveProperty("overrides");
    expect(unpinned.dependencies).toEqual(manifest.dependencies);
  });
});

describe("pinVerdict: the try's row", () => {
  const broken = { page: 500, health: 500 };
  const fine = { page: 200, health: 200 };

  it("says the pin is still needed while every Spotlight tried answers 500 without it", () => {
    expect(
      pinVerdict("4.11.8", [
        { spotlight: "4.11.8", hono: "4.13.19", answers: broken },
        { spotlight: "4.12.0", hono: "4.13.19", answers: broken },
      ]),
    ).toEqual({
      moved: `${SPOTLIGHT} 4.11.8 with hono 4.13.19, ${SPOTLIGHT} 4.12.0 with hono 4.13.19`,
      result: "the hono pin is still needed (4.11.8: page 500, /health 500; 4.12.0: page 500, /health 500)",
      ok: true,
    });
  });

  it("offers the pin's removal as an update to take the day the pinned Spotlight answers without it", () => {
    const { result, ok } = pinVerdict("4.11.8", [{ spotlight: "4.11.8", hono: "4.13.20", answers: fine }]);
    expect(ok).toBe(true);
    expect(result).toBe(
      "update to take: 4.11.8 answers without the hono pin: remove its override from tools/spotlight/package.json, then npm install there",
    );
  });

  it("offers the newer Spotlight with the pin's removal when only that one answers", () => {
    const { result } = pinVerdict("4.11.8", [
      { spotlight: "4.11.8", hono: "4.13.20", answers: broken },
      { spotlight: "4.12.0", hono: "4.13.20", answers: fine },
    ]);
    expect(result).toMatch(
      /^update to take: 4\.12\.0 answers without the hono pin: move \S+ to 4\.12\.0 and remove/,
    );
  });

  it("fails the row when a try could not be asked: an install or a sidecar that failed is no answer", () => {
    expect(
      pinVerdict("4.11.8", [
        { spotlight: "4.11.8", hono: "4.13.19", answers: broken },
        { spotlight: "4.12.0", answers: "npm install exit 1" },
      ]),
    ).toMatchObject({ result: "4.12.0 without the pin: npm install exit 1", ok: false });
    expect(
      pinVerdict("4.11.8", [{ spotlight: "4.11.8", answers: "Spotlight's sidecar exited (1)" }]).ok,
    ).toBe(false);
  });

  it("needs both the page and the health check: a page that answers alone is not Spotlight working", () => {
    expect(
      pinVerdict("4.11.8", [{ spotlight: "4.11.8", hono: "4.13.20", answers: { page: 200, health: 500 } }]),
    ).toMatchObject({ result: expect.stringMatching(/^the hono pin is still needed/), ok: true });
  });
});
