// What happens on every request, whatever the route: security headers, the request id, no caching
// by default, and one access-log line. These hooks await nothing, so they take a callback rather than
// return a promise (Fastify then skips a promise and a microtask per hook).
import { apiSecurityHeaders } from './security-headers.ts';
import type { HttpApp } from './types.ts';

export function installRequestHooks(app: HttpApp, options: { production: boolean }): void {
  const security = apiSecurityHeaders(options);
  // Once the server is closing, an answer to a request already in flight ends its connection: a
  // keep-alive connection would otherwise hold the close open until its idle timeout (72 s), past the
  // shutdown budget.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(security);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    // API answers are about one partner at one moment: never cache them unless a route says so.
    if (!reply.hasHeader('cache-control') && !request.url.startsWith('/docs')) reply.header('cache-control', 'no-store');
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: hosted links carry tokens in their path.
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        partnerId: request.tenant?.partnerId,
        operatorId: request.operator?.operatorId,
      },
      'request',
    );
    done();
  });
}
