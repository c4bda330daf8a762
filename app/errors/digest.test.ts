import { describe, expect, it } from "vitest";
import { isDigest } from "./digest";
import { createDigest } from "./server-failure.server";

describe("createDigest", () => {
  it("makes 12 hex characters", () => {
    expect(createDigest()).toMatch(/^[0-9a-f]{12}$/);
  });

  it("does not repeat over many draws", () => {
    const digests = new Set(Array.from({ length: 5000 }, createDigest));
    expect(digests.size).toBe(5000);
  });
});

describe("isDigest", () => {
  it("accepts a digest and refuses anything else", () => {
    expect(isDigest(createDigest())).toBe(true);
    for (const bad of ["", "ABCDEF123456", "0123456789a", "0123456789abc", "<script>", 12, null, undefined]) {
      expect(isDigest(bad)).toBe(false);
    }
  });
});
