// Security headers for API answers: the set OWASP's REST Security Cheat Sheet gives for JSON APIs.
// The document-only headers a browser page needs (COOP, X-XSS-Protection, X-Download-Options …) say
// nothing about JSON, and each costs time on every request; server-rendered pages set their own.
// The API reference's pages set a policy of their own (src/web/docs/reference/reference.ts).

export function apiSecurityHeaders(options: { production: boolean }): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    // HSTS only where the service is served over HTTPS; a sandbox on http://localhost must not pin it.
    ...(options.production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  });
}
