import { createContext, useContext } from "react";
import type { PublicEnv } from "~/env.server";

/**
 * What `entry.server` hands the document shell: CSP nonce, browser settings and
 * trace. Not a root loader, so error pages rendered without root data have them
 * too (docs/decisions/0054).
 */
export interface DocumentData {
  /** Empty in the browser: browsers hide nonce values from the DOM, and scripts added after hydration are trusted through `'strict-dynamic'`. */
  nonce?: string;
  env?: PublicEnv;
  trace: { sentryTrace?: string; baggage?: string };
}

export const DocumentContext = createContext<DocumentData | undefined>(undefined);

let rendered: DocumentData | undefined;

/**
 * In the browser: what the server rendered into the page, read once. Hydration
 * then produces the same elements, and later renders of the shell keep them.
 */
function renderedDocumentData(): DocumentData {
  const meta = (name: string) =>
    document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
  rendered ??= { env: window.ENV, trace: { sentryTrace: meta("sentry-trace"), baggage: meta("baggage") } };
  return rendered;
}

export function useDocumentData(): DocumentData {
  const provided = useContext(DocumentContext);
  if (provided) return provided;
  return typeof document === "undefined" ? { trace: {} } : renderedDocumentData();
}
