import type http from "node:http";
import { describe, expect, it } from "vitest";
import { supplyMissingHost } from "./request-guards";

const request = (headers: http.IncomingHttpHeaders) => ({ headers }) as http.IncomingMessage;
const response = {} as http.ServerResponse;

describe("supplyMissingHost", () => {
  it("gives a request without Host the one Remix 2 assumed, and answers nothing", () => {
    const without = request({});
    expect(supplyMissingHost(without, response)).toBe(false);
    expect(without.headers.host).toBe("localhost");
  });

  it("leaves a Host the client sent alone", () => {
    const sent = request({ host: "example.test:8080" });
    supplyMissingHost(sent, response);
    expect(sent.headers.host).toBe("example.test:8080");
  });
});
