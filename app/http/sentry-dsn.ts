/** `<protocol>://<public key>@<host>[/<path>]/<project id>` */

export interface Dsn {
  protocol: string;
  host: string;
  /** Without slashes at either end ("" for most DSNs). */
  path: string;
  projectId: string;
  publicKey: string;
}

export function parseDsn(value: unknown): Dsn | undefined {
  if (typeof value !== "string" || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  const segments = url.pathname.split("/").filter(Boolean);
  const projectId = segments.pop();
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    !url.username ||
    !projectId ||
    !/^\d+$/.test(projectId)
  ) {
    return undefined;
  }
  return {
    protocol: url.protocol,
    host: url.host,
    path: segments.join("/"),
    projectId,
    publicKey: url.username,
  };
}

function apiBase(dsn: Dsn): string {
  return `${dsn.protocol}//${dsn.host}/${dsn.path ? dsn.path + "/" : ""}api/${dsn.projectId}`;
}

export function envelopeEndpoint(dsn: Dsn): string {
  return `${apiBase(dsn)}/envelope/?sentry_key=${encodeURIComponent(dsn.publicKey)}&sentry_version=7`;
}

export function securityEndpoint(dsn: Dsn): string {
  return `${apiBase(dsn)}/security/?sentry_key=${encodeURIComponent(dsn.publicKey)}`;
}

export function sameProject(a: Dsn, b: Dsn): boolean {
  return a.host === b.host && a.path === b.path && a.projectId === b.projectId && a.publicKey === b.publicKey;
}
