import { Outlet, useRouteError } from "@remix-run/react";
import { captureRemixErrorBoundaryError, withSentry } from "@sentry/remix";
import { ErrorBoundary as BaselineErrorBoundary } from "../../baseline/app/root";

// The baseline's root (same document, head, stylesheet and error markup) with
// what Sentry's Remix guide adds to a root: the app wrapped in `withSentry`
// (routing transactions in the browser), and the root ErrorBoundary reporting
// what it catches with `captureRemixErrorBoundaryError`.
export { Layout, links, meta } from "../../baseline/app/root";

function App() {
  return <Outlet />;
}

export default withSentry(App);

export function ErrorBoundary() {
  captureRemixErrorBoundaryError(useRouteError());
  return <BaselineErrorBoundary />;
}
