// Helmet's security headers, computed once at start. Through @fastify/helmet, helmet rebuilt and
// re-validated its whole configuration (CSP directives included) on every request, which was the
// largest single cost the app added to a /v1 call (see bench/README.md). The configuration is static
// (no per-request CSP nonces), so the headers are the same on every answer: build them once with
// helmet itself and copy them onto each reply.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: number | string | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // Helmet's middleware is synchronous and only sets or removes response headers.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}
