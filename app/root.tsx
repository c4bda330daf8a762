import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import type { ReactNode } from "react";
import { useDocumentData } from "~/document/document-context";
import { serializeForScript } from "~/document/public-env";
import stylesheet from "~/styles/app.css?url";
import { siteMeta } from "~/site";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

export const meta: MetaFunction = () => siteMeta();

/** Wraps every error page too, so the browser settings (and with them Sentry) and the trace are on every page. */
export function Layout({ children }: { children: ReactNode }) {
  const { nonce, env, trace } = useDocumentData();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {trace.sentryTrace ? <meta name="sentry-trace" content={trace.sentryTrace} /> : null}
        {trace.baggage ? <meta name="baggage" content={trace.baggage} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: `window.ENV = ${serializeForScript(env)};` }}
        />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/errors/error-page";
