import type { Client, Event, Integration } from "@sentry/core";
import * as Sentry from "@sentry/node";
import { describe, expect, it } from "vitest";
import { contextIntegration } from "./server-init.server";
import { sdkFramesNotInApp } from "./server-sdk.server";

describe("sdkFramesNotInApp", () => {
  it("marks the frames of the build's chunk of the SDK not the app's, and leaves the app's", () => {
    const stack = [
      "Error: x",
      "    at loader (file:///srv/build/server/assets/routes-Ab1.js:3:9)",
      "    at Object.apply (file:///srv/build/server/assets/server-sdk-modules.server-Cd2_x.js:40:7)",
    ].join("\n");
    const frames = sdkFramesNotInApp(Sentry.defaultStackParser)(stack);
    expect(frames.map((frame) => [frame.function, frame.in_app])).toEqual([
      ["Object.apply", false],
      ["loader", true],
    ]);
  });
});

/** The SDK's own Context integration, counting how often it reads the process's figures. */
function countedContextIntegration() {
  const real = Sentry.nodeContextIntegration();
  const counted = {
    calls: 0,
    integration: {
      ...real,
      processEvent(event, hint, client) {
        counted.calls += 1;
        return real.processEvent!(event, hint, client);
      },
    } satisfies Integration,
  };
  return counted;
}

const client = {} as Client;
const process = async (integration: Integration, event: Event) =>
  (await integration.processEvent!(event, {}, client)) as Event;

describe("contextIntegration", () => {
  it("gives transactions the SDK's contexts, read at most once per interval", async () => {
    const counted = countedContextIntegration();
    const integration = contextIntegration(counted.integration, 60_000);
    const first = await process(integration, {
      type: "transaction",
      contexts: { trace: { trace_id: "t", span_id: "s" } },
    });
    const second = await process(integration, { type: "transaction" });
    expect(counted.calls).toBe(1);
    expect(first.contexts?.trace).toEqual({ trace_id: "t", span_id: "s" });
    for (const name of ["app", "os", "device", "culture"]) {
      expect(first.contexts, name).toHaveProperty(name);
    }
    expect(first.contexts?.app?.app_memory).toEqual(expect.any(Number));
    expect(second.contexts).toEqual({ ...first.contexts, trace: undefined });
  });

  it("reads again once the figures are older than the interval", async () => {
    const counted = countedContextIntegration();
    const integration = contextIntegration(counted.integration, -1);
    await process(integration, { type: "transaction" });
    await process(integration, { type: "transaction" });
    expect(counted.calls).toBe(2);
  });

  it("gives every error fresh figures, and what an event already has wins", async () => {
    const counted = countedContextIntegration();
    const integration = contextIntegration(counted.integration, 60_000);
    await process(integration, { type: "transaction" });
    const error = await process(integration, { contexts: { app: { app_name: "mine" } } });
    await process(integration, {});
    expect(counted.calls).toBe(3);
    expect(error.contexts?.app).toMatchObject({ app_name: "mine", app_memory: expect.any(Number) });
    const transaction = await process(integration, {
      type: "transaction",
      contexts: { app: { app_name: "mine" } },
    });
    expect(transaction.contexts?.app).toMatchObject({ app_name: "mine", app_memory: expect.any(Number) });
  });

  it("keeps the integration's name, so it replaces the SDK's default one", () => {
    expect(contextIntegration(Sentry.nodeContextIntegration()).name).toBe("Context");
  });
});
