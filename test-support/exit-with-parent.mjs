// Preloaded (`--import`) into the app servers the tests start, never into
// production: a server exits as soon as the test worker that started it is
// gone. A worker that times out or crashes never runs its `finally` blocks,
// and its servers would otherwise keep running, and loading the machine,
// until the end of the run (scripts/run-tests.mjs sweeps what is left then).
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 250).unref();
