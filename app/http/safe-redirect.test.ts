import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

const FALLBACK = "/home";

describe("safeRedirectPath", () => {
  it.each([
    "/",
    "/account",
    "/a/b?tab=2&x=%20y",
    "/search?q=a%26b#results",
    "/items/%E2%82%AC",
    "/login?next=%2Faccount%2Fsettings",
  ])("lets the same-origin path %s through", (target) =>
    expect(safeRedirectPath(target, FALLBACK)).toBe(target),
  );

  it.each([
    ["a backslash host", "/\\evil.example"],
    ["a backslash later", "/a\\..\\\\evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a protocol-relative URL with more slashes", "///evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path with a colon", "foo:bar"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a relative path", "account"],
    ["a tab in the slashes", "/\t/evil.example"],
    ["a newline in the slashes", "/\n/evil.example"],
    ["a NUL byte", "/\u0000/evil.example"],
    ["a C1 control character", "/\u0085/evil.example"],
    ["a space", "/ /evil.example"],
    ["an encoded slash", "/%2Fevil.example"],
    ["an encoded backslash", "/%5cevil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded newline", "/%0a/evil.example"],
    ["an encoded C1 control character", "/%C2%85/evil.example"],
    ["an empty string", ""],
    ["a very long path", "/" + "a".repeat(5000)],
  ])("refuses %s", (_name, target) => expect(safeRedirectPath(target, FALLBACK)).toBe(FALLBACK));

  it.each([undefined, null, 42, ["/a"], { toString: () => "/a" }])("refuses the non-string %j", (target) =>
    expect(safeRedirectPath(target, FALLBACK)).toBe(FALLBACK),
  );

  it.each([
    ["/x€", "/x%E2%82%AC"],
    ["/café?q=é#é", "/caf%C3%A9?q=%C3%A9#%C3%A9"],
    ["/a%zz", "/a%25zz"],
    ["/100%", "/100%25"],
    ["/emoji/😀", "/emoji/%F0%9F%98%80"],
  ])("percent-encodes %s for the Location header", (target, expected) =>
    expect(safeRedirectPath(target, FALLBACK)).toBe(expected),
  );

  it.each([
    ["a lone surrogate", "/a\ud800"],
    ["escapes that decode to no text", "/%E2%82"],
    ["a path that grows too long when encoded", "/" + "é".repeat(1500)],
  ])("refuses %s", (_name, target) => expect(safeRedirectPath(target, FALLBACK)).toBe(FALLBACK));

  it("falls back to / when no fallback is given", () => expect(safeRedirectPath("//evil.example")).toBe("/"));
});
