import { createContext, useContext } from "react";
import type { PublicEnv } from "~/env.server";

/** Not a root loader, so error pages rendered without root data have it too (docs/decisions/0054). */
export interface DocumentData {
  /** Empty in the browser, which hides nonces; later scripts are trusted through `'strict-dynamic'`. */
  nonce?: string;
  env?: PublicEnv;
  trace: { sentryTrace?: string; baggage?: string };
}

export const DocumentContext = createContext<DocumentData | undefined>(undefined);

let rendered: DocumentData | undefined;

/** Read once, so hydration and later renders of the shell produce the same elements. */
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
