import { GeneralErrorBoundary } from "~/errors/error-page";

/**
 * The catch-all: every path no other route serves, for every method and
 * request kind (document, `.data`, form post), answers 404 with the
 * not-found page, never 405 or 500.
 */
function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export const loader = () => notFound();
export const action = () => notFound();

export default function NotFound() {
  // Never rendered: the loader always throws. The boundary renders the 404.
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
