import { describe, expect, it } from "vitest";
import { mirrorFor, parseDeb822Sources, parseOneLineSources } from "./apt-mirror";

describe("apt mirror", () => {
  it("reads one-line sources, options and comments included", () => {
    const sources = parseOneLineSources(
      [
        "# deb http://old.example/debian bookworm main",
        "deb [signed-by=/usr/share/keyrings/k.gpg] http://mirror.example/debian bookworm main",
        "deb-src http://mirror.example/debian bookworm main",
        "deb http://security.example/debian-security bookworm-security main # security",
      ].join("\n"),
    );
    expect(sources).toEqual([
      { uri: "http://mirror.example/debian", suites: ["bookworm"] },
      { uri: "http://security.example/debian-security", suites: ["bookworm-security"] },
    ]);
    expect(mirrorFor(sources, "bookworm")).toBe("http://mirror.example/debian");
  });

  it("reads deb822 stanzas and skips source-only and disabled ones", () => {
    const sources = parseDeb822Sources(
      [
        "Types: deb-src",
        "URIs: http://src.example/debian",
        "Suites: bookworm",
        "",
        "Types: deb",
        "# http://snapshot.example/archive/debian/20250520T000000Z",
        "URIs: http://off.example/debian",
        "Suites: bookworm",
        "Enabled: no",
        "",
        "Types: deb",
        "URIs: http://security.example/debian-security",
        "Suites: bookworm-security",
        "",
        "Types: deb",
        "URIs: http://deb.example/debian",
        "Suites: bookworm bookworm-updates",
        "Components: main",
      ].join("\n"),
    );
    expect(mirrorFor(sources, "bookworm")).toBe("http://deb.example/debian");
    expect(mirrorFor(sources, "trixie")).toBeUndefined();
  });
});
