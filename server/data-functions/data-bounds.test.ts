import { describe, expect, it } from "vitest";
import { checkDataBounds, MAX_DATA_DEPTH, MAX_DATA_VALUES, UnboundedDataError } from "./data-bounds";

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe("checkDataBounds", () => {
  it("accepts what pages return: records, lists, maps, dates, deferred promises, cycles", () => {
    const rows = Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}`, tags: ["a", "b"] }));
    const cyclic: Record<string, unknown> = { name: "self" };
    cyclic.self = cyclic;
    const pending = new Promise(() => {});
    expect(() =>
      checkDataBounds({ rows, at: new Date(), map: new Map([["k", { v: 1 }]]), cyclic, later: pending }),
    ).not.toThrow();
    expect(() => checkDataBounds(nested(MAX_DATA_DEPTH - 1))).not.toThrow();
    expect(() => checkDataBounds(null)).not.toThrow();
    expect(() => checkDataBounds(new Response("x"))).not.toThrow();
  });

  it("refuses the advisory's shape: thousands of nested arrays (the encoder overflows the stack)", () => {
    expect(() => checkDataBounds(nested(20_000))).toThrow(UnboundedDataError);
    expect(() => checkDataBounds({ a: { b: nested(MAX_DATA_DEPTH + 1) } })).toThrow(/nested deeper/);
    expect(() => checkDataBounds(new Map([["k", nested(MAX_DATA_DEPTH + 1)]]))).toThrow(UnboundedDataError);
  });

  it("refuses more values than the limit, in arrays, objects or sets", () => {
    const many = Array.from({ length: MAX_DATA_VALUES }, (_, i) => i);
    expect(() => checkDataBounds(many)).toThrow(/more than/);
    expect(() => checkDataBounds(new Set(many))).toThrow(UnboundedDataError);
    expect(() => checkDataBounds(Object.fromEntries(many.map((i) => [`k${i}`, i])))).toThrow(
      UnboundedDataError,
    );
  });
});
