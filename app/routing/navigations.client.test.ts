/**
 * What the browser's navigation trace is started from, on a real router of the
 * framework's (test-support/framework-router.ts), and the guard of what it
 * assumes: the router calls its subscribers with the new navigation state
 * before any loader or action of that navigation runs (so before their request
 * is sent), and marks a location it reached by a redirect `_isRedirect`.
 */
import { afterEach, vi } from "vitest";
import { navigationCases } from "../../test-support/navigation-cases";
import { mountFrameworkRouter } from "../../test-support/framework-router";

afterEach(() => vi.unstubAllGlobals());

navigationCases(mountFrameworkRouter);
