/**
 * What to do when a guard of an assumption about someone else's code fails (a
 * patch made for one version, a framework internal the adapter relies on):
 * the advice is added to each failing assertion's message, so the failure
 * itself says it wherever it is read, a terminal or a CI log.
 */
import { beforeEach, onTestFailed } from "vitest";

/** For every test of the file (or `describe`) it is called in. */
export function adviseOnFailure(advice: string): void {
  beforeEach(() => {
    onTestFailed(({ task }) => {
      for (const error of task.result?.errors ?? [])
        error.message = `${error.message}\n\nWhat to do: ${advice}`;
    });
  });
}

/** A guard of `server/adapter/<file>`: an update changed what it relies on. */
export const ADAPTER_ADVICE = (file: string) =>
  `an update changed what server/adapter/${file} relies on (its row in server/adapter/README.md). ` +
  "Do not skip or loosen this test: read the new version's code and adapt the adapter until this passes, " +
  "or keep the previous version in package.json until then (docs/updating-dependencies.md).";

/** A guard of a patch in patches/: the patched package changed. */
export const PATCH_ADVICE =
  "the patched package changed version or code. Do not skip this test: follow docs/updating-dependencies.md " +
  "('A patch that no longer applies'): check whether the new version still needs the patch, then recreate it " +
  "with `npx patch-package <package>` (or delete it), and move its unpatched twin to the same version.";
