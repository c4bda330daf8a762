import { removeTestContainers } from "./support/docker";

/** Whatever a test left behind (a crash, a time-out): no container of the checks outlives the run. */
export default async function globalTeardown() {
  const removed = await removeTestContainers();
  if (removed > 0) console.log(`deploy checks: removed ${removed} container(s) left by the tests`);
}
