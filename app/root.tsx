import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { getPublicEnv } from "~/env.server";
import { withMonitoring } from "~/monitoring/client-monitoring";
import { traceMetaData } from "~/monitoring/sentry.server";
import { useNonce } from "~/utils/nonce";
import { serializeForScript } from "~/utils/public-env";
import stylesheet from "~/styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export const meta: MetaFunction = () => [{ title: "Remix + Sentry scaffold" }];

export async function loader() {
  // Only the allowlist in getPublicEnv reaches the browser. The trace data lets
  // the browser's page load continue this request's trace.
  return { env: getPublicEnv(), trace: traceMetaData() };
}

/**
 * The document shell. It wraps the app and every error page alike, so the
 * browser settings (and with them Sentry) are on every page, the 404 and
 * error pages included.
 */
export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {data?.trace.sentryTrace ? <meta name="sentry-trace" content={data.trace.sentryTrace} /> : null}
        {data?.trace.baggage ? <meta name="baggage" content={data.trace.baggage} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <script
          nonce={nonce}
          // Escaped so no value can close the script element (see serializeForScript).
          dangerouslySetInnerHTML={{ __html: `window.ENV = ${serializeForScript(data?.env)};` }}
        />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function App() {
  return <Outlet />;
}

export default withMonitoring(App);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
