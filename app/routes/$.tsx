import { GeneralErrorBoundary } from "~/errors/error-page";

/** Every method and request kind (document, `.data`, form post) gets the 404, never 405 or 500. */
function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export const loader = () => notFound();
export const action = () => notFound();

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
