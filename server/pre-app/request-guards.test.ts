import type http from "node:http";
import { describe, expect, it } from "vitest";
import { refuseInvalidHost, supplyMissingHost } from "./request-guards";

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

describe("refuseInvalidHost", () => {
  /** Whether the guard answers a request with these headers, and what it wrote. */
  function answered(headers: http.IncomingHttpHeaders): { refused: boolean; status?: number } {
    let status: number | undefined;
    const written = {
      writeHead: (code: number) => void (status = code),
      end: () => undefined,
    } as unknown as http.ServerResponse;
    const incoming = { headers, method: "GET", url: "/" } as http.IncomingMessage;
    return { refused: refuseInvalidHost(incoming, written), status };
  }

  it.each([
    "example.test",
    "example.test:8080",
    "127.0.0.1:3000",
    "[::1]:3000",
    "xn--9ca.example",
    "localhost:0",
  ])("lets Host %s through", (host) =>
    expect(answered({ host })).toEqual({ refused: false, status: undefined }),
  );

  it.each(["evil.example:99999", "evil.example:-1", "a b", "a<b", "a/b", "a@b", "a\\b", "[::1", "x:y:z", ""])(
    "refuses Host %j with 400",
    (host) => expect(answered({ host })).toEqual({ refused: true, status: 400 }),
  );

  it("refuses an X-Forwarded-Host with an entry that is no host, whoever sent it", () => {
    expect(answered({ host: "ok.test", "x-forwarded-host": "a.test, b.test:1" }).refused).toBe(false);
    expect(answered({ host: "ok.test", "x-forwarded-host": "a.test, b.test:99999" })).toEqual({
      refused: true,
      status: 400,
    });
  });
});
