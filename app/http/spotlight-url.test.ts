import { describe, expect, it } from "vitest";
import { DEFAULT_SPOTLIGHT_URL, parseSpotlight } from "./spotlight-url";

describe("SENTRY_SPOTLIGHT", () => {
  it.each(["1", "true", "YES", "on", " On "])("%j turns it on at Spotlight's default URL", (value) => {
    expect(parseSpotlight(value)).toBe(DEFAULT_SPOTLIGHT_URL);
  });

  it.each(["", "0", "false", "no", "OFF"])("%j leaves it off", (value) => {
    expect(parseSpotlight(value)).toBeNull();
  });

  it("a URL says where the sidecar is", () => {
    expect(parseSpotlight("http://127.0.0.1:9000/stream")).toBe("http://127.0.0.1:9000/stream");
    expect(parseSpotlight(" https://spotlight.internal/stream ")).toBe("https://spotlight.internal/stream");
  });

  it.each([
    "maybe",
    "8969",
    "localhost:8969",
    "ftp://localhost/stream",
    "http://user:secret@localhost:8969/",
  ])("%j is refused", (value) => {
    expect(parseSpotlight(value)).toBeUndefined();
  });
});
