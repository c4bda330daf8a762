/**
 * What a failed BuildKit build says about its base image. BuildKit resolves
 * every `FROM` image in a step titled `[internal] load metadata for <image>`
 * (pulling it when Docker does not have it); when that step fails, the image
 * could not be found or pulled. Both clients print it the same way:
 *
 *   #3 [internal] load metadata for docker.io/library/node:24-bookworm-slim
 *   #3 ERROR: failed to do request: Head "https://registry-1.docker.io/…": dial tcp: …
 *
 * (docker buildx writes `failed to resolve source metadata for <image>: …` after ERROR:).
 */
export interface BaseImageFailure {
  /** The image as BuildKit names it (docker.io/library/… for Docker Hub's). */
  image: string;
  /** BuildKit's reason, one line. */
  reason: string;
}

export function baseImageFailure(buildOutput: string): BaseImageFailure | undefined {
  const steps = new Map<string, string>();
  for (const match of buildOutput.matchAll(/^#(\d+) \[internal\] load metadata for (\S+)\s*$/gm)) {
    steps.set(match[1]!, match[2]!);
  }
  for (const match of buildOutput.matchAll(/^#(\d+) ERROR: (.*)$/gm)) {
    const image = steps.get(match[1]!);
    if (image) return { image, reason: match[2]!.trim() };
  }
  const resolve = /failed to resolve source metadata for (\S+?):? (.*)$/m.exec(buildOutput);
  return resolve ? { image: resolve[1]!, reason: resolve[2]!.trim() } : undefined;
}

/** The client says it needs buildx (a Docker CLI from 23 on, without the plugin, asked for BuildKit). */
export function buildxMissing(buildOutput: string): boolean {
  return /buildx component is missing|buildx.*not installed|'buildx' is not a docker command/i.test(
    buildOutput,
  );
}
