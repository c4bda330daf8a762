/**
 * `npm run bench -- goals --plant-ms <ms>`: busy work on every request of the server this module is
 * preloaded into (`--import <this file>?ms=<ms>`), the measured one of each comparison only, to show
 * that the goals catch a slower app (bench/README.md, "Goals"). Never loaded by the app itself.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

const ms = Number(new URL(import.meta.url).searchParams.get("ms"));
const emit = http.Server.prototype.emit;
/** @param {string | symbol} event @param {unknown[]} args */
http.Server.prototype.emit = function (event, ...args) {
  if (event === "request") {
    const end = performance.now() + ms;
    while (performance.now() < end);
  }
  return Reflect.apply(emit, this, [event, ...args]);
};
