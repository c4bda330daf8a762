import { describe, expect, it } from "vitest";
import { serializeForScript } from "./public-env";

describe("serializeForScript", () => {
  it("cannot close the script element or open a comment", () => {
    const out = serializeForScript({ a: "</script><script>alert(1)</script>", b: "<!--", c: "\u2028\u2029" });
    expect(out).not.toMatch(/<\/script/i);
    expect(out).not.toContain("<!--");
    expect(out).not.toMatch(/[\u2028\u2029]/);
  });

  it("round-trips through JavaScript evaluation", () => {
    const value = { dsn: "https://k@o.example/1", odd: "</script><!-- \u2028 ' \" \\" };
    expect(new Function(`return ${serializeForScript(value)}`)()).toEqual(value);
  });

  it("writes null for undefined", () => {
    expect(serializeForScript(undefined)).toBe("null");
  });
});
