import { createContext, useContext } from "react";

/**
 * The CSP nonce of the current response. `entry.server` creates one per
 * request and provides it; in the browser it is empty (browsers hide nonce
 * values from the DOM, and scripts added after hydration are trusted through
 * `'strict-dynamic'`).
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
