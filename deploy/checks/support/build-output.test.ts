import { describe, expect, it } from "vitest";
import { baseImageFailure, buildxMissing } from "./build-output";

// Output of real failed builds (Docker 20.10's BuildKit client, docker buildx 0.2x), trimmed.
const CLIENT_20_10 = `#2 [internal] load .dockerignore
#2 DONE 0.0s

#3 [internal] load metadata for docker.io/library/node:24-bookworm-slim
#3 sha256:74066f1bb47bf6fbef9cdc0d1e34f79234a2c3dceb74428d7b16937c814edd7e
#3 ERROR: failed to do request: Head "https://registry-1.docker.io/v2/library/node/manifests/24-bookworm-slim": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host
------
 > [internal] load metadata for docker.io/library/node:24-bookworm-slim:
------
failed to solve with frontend dockerfile.v0: failed to create LLB definition: failed to do request: Head "https://registry-1.docker.io/v2/library/node/manifests/24-bookworm-slim": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host
`;

const BUILDX = `#1 [internal] load build definition from Dockerfile
#1 DONE 0.0s

#2 [internal] load metadata for docker.io/example/none:24
#2 ERROR: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed
------
 > [internal] load metadata for docker.io/example/none:24:
------
ERROR: failed to build: failed to solve: example/none:24: failed to resolve source metadata for docker.io/example/none:24: pull access denied, repository does not exist or may require authorization
`;

describe("build output", () => {
  it("names the base image that could not be pulled, and why", () => {
    expect(baseImageFailure(CLIENT_20_10)).toEqual({
      image: "docker.io/library/node:24-bookworm-slim",
      reason: expect.stringMatching(/^failed to do request: .*no such host$/),
    });
    expect(baseImageFailure(BUILDX)).toEqual({
      image: "docker.io/example/none:24",
      reason: expect.stringMatching(/^pull access denied/),
    });
    const summaryOnly = BUILDX.split("\n").slice(-2).join("\n");
    expect(baseImageFailure(summaryOnly)?.image).toBe("docker.io/example/none:24");
  });

  it("says nothing of the base when a later step failed", () => {
    const laterStep = `#3 [internal] load metadata for docker.io/library/node:24-bookworm-slim
#3 DONE 0.4s

#9 [build 2/2] RUN npm run build
#9 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 1
`;
    expect(baseImageFailure(laterStep)).toBeUndefined();
  });

  it("recognises a CLI that needs buildx for BuildKit", () => {
    expect(buildxMissing("ERROR: BuildKit is enabled but the buildx component is missing or broken.")).toBe(
      true,
    );
    expect(buildxMissing(CLIENT_20_10)).toBe(false);
  });
});
