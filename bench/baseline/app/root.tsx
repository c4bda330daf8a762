import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import stylesheet from "../../../app/styles/app.css?url";
import { siteMeta } from "../../../app/site";

// A bare Remix root: the app's document shell (same head, same stylesheet,
// title and description) minus what the scaffold adds: no window.ENV, no trace meta tags,
// no nonce, no monitoring wrapper.
export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

export const meta: MetaFunction = () => siteMeta();

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The same markup as the app's error page for a thrown Response; anything else is a 500. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="error-page">
      <h1>{status}</h1>
      <p>{status === 404 ? "This page could not be found." : "The server could not answer this request."}</p>
    </main>
  );
}
