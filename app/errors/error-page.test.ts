import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { classifyRouteError, NOT_FOUND_TEXT, statusText } from "./error-page";

const inBrowser = { onServer: false, digest: undefined };

describe("classifyRouteError", () => {
  it("shows a thrown Response by status with a fixed short text", () => {
    expect(classifyRouteError(new ErrorResponse(404, "Not Found", "secret body"), inBrowser)).toEqual({
      kind: "response",
      status: 404,
      text: NOT_FOUND_TEXT,
    });
    expect(classifyRouteError(new ErrorResponse(503, "", null), inBrowser)).toMatchObject({ status: 503 });
  });

  it("treats every error rendered on the server as a server error with its digest", () => {
    expect(classifyRouteError(new TypeError("boom"), { onServer: true, digest: "0123456789ab" })).toEqual({
      kind: "server",
      digest: "0123456789ab",
    });
  });

  it("recognises Remix's sanitized copy of a server error in the browser", () => {
    expect(classifyRouteError(new Error("Unexpected Server Error"), inBrowser)).toEqual({
      kind: "server",
      digest: undefined,
    });
  });

  it("treats any other browser error as a client-side exception", () => {
    expect(classifyRouteError(new Error("render failed"), inBrowser)).toEqual({ kind: "client" });
    expect(classifyRouteError("a string", inBrowser)).toEqual({ kind: "client" });
  });
});

describe("statusText", () => {
  it("falls back by class for unknown statuses", () => {
    expect(statusText(418)).toBe(statusText(400));
    expect(statusText(599)).toBe(statusText(500));
  });
});
