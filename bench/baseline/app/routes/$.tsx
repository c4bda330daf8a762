// The catch-all 404, as a bare Remix app writes it: the loader and the action
// throw a 404 Response and the root ErrorBoundary renders the same markup as
// the app's not-found page.
function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export const loader = () => notFound();
export const action = () => notFound();

export default function NotFound() {
  return null;
}
