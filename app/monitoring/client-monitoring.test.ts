/**
 * reportRootError with Sentry off (no DSN, or its chunk did not load): React's
 * root errors must still reach the browser's own reporting, as React's default
 * handlers do, not vanish because the app took the hooks over.
 */
import { afterEach, expect, it, vi } from "vitest";
import { reportRootError } from "./client-monitoring";

afterEach(() => vi.unstubAllGlobals());

it("hands a root error to window.reportError while Sentry is not running", () => {
  const reportError = vi.fn();
  vi.stubGlobal("window", { reportError });
  const error = new Error("Fixture: root error");
  reportRootError(error, { componentStack: "\n    at Page" });
  expect(reportError).toHaveBeenCalledExactlyOnceWith(error);
});

it("logs it where the browser has no reportError", () => {
  vi.stubGlobal("window", {});
  const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const error = new Error("Fixture: root error");
  reportRootError(error, {});
  expect(log).toHaveBeenCalledExactlyOnceWith(error);
  log.mockRestore();
});
