/**
 * The Kubernetes manifests are valid API objects (kubernetes-models' schemas
 * of the Kubernetes API) and agree with the app: its port, its probe paths,
 * its shutdown timings (read from the shutdown module and the ConfigMap, not
 * copied), its configuration schema and the image's user.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1/Deployment";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Service } from "kubernetes-models/v1/Service";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseEnv } from "~/env.server";
import { READINESS_PATH, OPERATIONAL_PATHS } from "~/http/operational-paths";
import { SENTRY_FLUSH_MS, SHUTDOWN_GRACE_MS } from "../../server/shutdown";

const dir = import.meta.dirname;
const root = path.resolve(dir, "../..");

const MODELS = {
  "apps/v1 Deployment": Deployment,
  "v1 Service": Service,
  "v1 ConfigMap": ConfigMap,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
} as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML documents, narrowed per kind below
type Manifest = Record<string, any>;

function readYaml(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(path.join(dir, file), "utf8")).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    return document.toJS() as Manifest;
  });
}

const kustomization = readYaml("kustomization.yaml")[0]!;
const manifests = (kustomization.resources as string[]).flatMap(readYaml);
const byKind = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);

const deployment = byKind("Deployment")[0] as IDeployment;
const pod = deployment.spec!.template.spec!;
const container = pod.containers[0]!;
const configMap = byKind("ConfigMap")[0]!;

/**
 * The app's peak resident set at the default sample rate under sustained load,
 * in MiB (`npm run bench`, target D), read from the figure's one home: the
 * bench note's "The pod's memory request" in bench/README.md, "Start-up and
 * memory" (the highest of "peaked at <low>-<high> MiB"). The pod's memory
 * request follows it: a new measurement there that the request does not cover fails here.
 */
const MEASURED_PEAK_RSS_MIB = (() => {
  const note = readFileSync(path.join(root, "bench/README.md"), "utf8");
  const section = note.split(/^### /m).find((part) => part.startsWith("Start-up and memory\n"));
  const peak = /The pod's memory request\*\*[^]*?peaked at (?:\d+-)?(\d+) MiB/.exec(section ?? "");
  if (!peak)
    throw new Error(
      'bench/README.md, "Start-up and memory": no "peaked at … MiB" for the pod\'s memory request',
    );
  return Number(peak[1]);
})();

/** A memory quantity in MiB (the manifests write `Mi` or `Gi`). */
function mebibytes(quantity: string | number | undefined): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(String(quantity));
  if (!match) throw new Error(`memory quantity in Mi or Gi expected, got ${quantity}`);
  return Number(match[1]) * (match[2] === "Gi" ? 1024 : 1);
}

/** The image's user id: the last USER of the Dockerfile, or 1000 (the official node image's `node`) without one. */
function imageUid(): number {
  const dockerfile = path.join(root, "Dockerfile");
  if (!existsSync(dockerfile)) return 1000;
  const users = [...readFileSync(dockerfile, "utf8").matchAll(/^USER\s+(\d+)/gm)];
  if (users.length === 0)
    throw new Error("the Dockerfile sets no numeric USER: runAsNonRoot cannot verify it");
  return Number(users.at(-1)![1]);
}

describe("Kubernetes manifests", () => {
  it("list every manifest of the folder", () => {
    const files = readdirSync(dir).filter((file) => file.endsWith(".yaml") && file !== "kustomization.yaml");
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
  });

  it("are valid objects of the Kubernetes API", () => {
    for (const manifest of manifests) {
      const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}` as keyof typeof MODELS];
      expect(Model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() => new Model(manifest as never).validate(), manifest.metadata?.name).not.toThrow();
    }
    expect(new Set(manifests.map((manifest) => manifest.kind))).toEqual(
      new Set(["Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "HorizontalPodAutoscaler"]),
    );
  });

  it("configure the app with values its own schema accepts", () => {
    expect(() => parseEnv(configMap.data)).not.toThrow();
    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap.metadata.name } });
    expect(container.env).toContainEqual({
      name: "SENTRY_DSN",
      valueFrom: { secretKeyRef: { name: "web-sentry", key: "SENTRY_DSN", optional: true } },
    });
  });

  it("use the app's port and probe paths", () => {
    const dockerfile = path.join(root, "Dockerfile");
    const port = existsSync(dockerfile)
      ? Number(/^ENV\b.*\bPORT=(\d+)/m.exec(readFileSync(dockerfile, "utf8"))?.[1])
      : 3000;
    expect(port).toBe(3000);
    expect(configMap.data.PORT ?? String(port)).toBe(String(port));
    expect(container.ports).toEqual([{ name: "http", containerPort: port }]);
    // Liveness is the Remix route app/routes/healthz.ts; readiness is answered in front of Express.
    expect(existsSync(path.join(root, "app/routes/healthz.ts"))).toBe(true);
    expect(OPERATIONAL_PATHS).toContain("/healthz");
    expect(container.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.startupProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.readinessProbe?.httpGet).toEqual({ path: READINESS_PATH, port: "http" });
    const service = byKind("Service")[0]!;
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http" }]);
  });

  it("give a draining pod all the time its shutdown can take", () => {
    const { SHUTDOWN_DRAIN_DELAY_MS } = parseEnv(configMap.data);
    // Kubernetes needs a few seconds to take a terminating pod out of every proxy.
    expect(SHUTDOWN_DRAIN_DELAY_MS).toBeGreaterThanOrEqual(3_000);
    // A readiness probe alone (a balancer that only watches it) also notices within the delay.
    const readiness = container.readinessProbe!;
    expect((readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000).toBeLessThanOrEqual(
      SHUTDOWN_DRAIN_DELAY_MS,
    );
    const shutdownMs = SHUTDOWN_DRAIN_DELAY_MS + SHUTDOWN_GRACE_MS + SENTRY_FLUSH_MS;
    expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(shutdownMs);
    // The drain delay replaces a preStop hook; both would add up.
    expect(container.lifecycle?.preStop).toBeUndefined();
  });

  it("run as the image's non-root user, read-only, unprivileged", () => {
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: imageUid(),
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    expect(container.volumeMounts).toEqual([{ name: "tmp", mountPath: "/tmp" }]);
    expect(pod.volumes).toContainEqual(expect.objectContaining({ name: "tmp", emptyDir: expect.anything() }));
  });

  it("set requests and limits, scale on CPU from two replicas, and keep one pod through disruptions", () => {
    for (const kind of ["requests", "limits"] as const) {
      expect(Object.keys(container.resources?.[kind] ?? {}).sort(), kind).toEqual(["cpu", "memory"]);
    }
    // Memory: the request covers the measured peak, the limit leaves a quarter more above it.
    const memory = (kind: "requests" | "limits") => mebibytes(container.resources?.[kind]?.memory as string);
    expect(memory("requests")).toBeGreaterThanOrEqual(MEASURED_PEAK_RSS_MIB);
    expect(memory("limits")).toBeGreaterThanOrEqual(memory("requests") * 1.25);
    const labels = deployment.spec!.template.metadata!.labels;
    expect(deployment.spec!.selector.matchLabels).toEqual(labels);
    expect(deployment.spec!.replicas).toBeGreaterThanOrEqual(2);
    const hpa = byKind("HorizontalPodAutoscaler")[0]!;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "web" });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.metrics).toEqual([
      {
        type: "Resource",
        resource: { name: "cpu", target: expect.objectContaining({ type: "Utilization" }) },
      },
    ]);
    expect(byKind("PodDisruptionBudget")[0]!.spec.selector.matchLabels).toEqual(labels);
    expect(byKind("Service")[0]!.spec.selector).toEqual(labels);
  });
});
