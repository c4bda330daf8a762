/**
 * Security headers of every document response, and the per-request CSP nonce.
 */

/** A fresh, unguessable nonce for one response (128 bits, base64). */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}

export function setSecurityHeaders(headers: Headers, _nonce: string): void {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
}
