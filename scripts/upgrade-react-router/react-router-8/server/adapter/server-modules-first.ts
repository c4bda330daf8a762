// Before Sentry starts, so its channel injection rewrites neither (docs/decisions/0098).
export const SERVER_MODULES = ["express", "@remix-run/node-fetch-server"] as const;

export async function loadServerModulesFirst(): Promise<void> {
  for (const name of SERVER_MODULES) await import(name);
}
