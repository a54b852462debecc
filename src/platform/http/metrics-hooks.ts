// Every answer counted by method, route template and status (pvs_http_requests_total) and timed
// (pvs_http_request_duration_seconds). The route is Fastify's template (`/v1/business-lookups/:id`),
// `unmatched` when no route matched: never the raw URL, which carries ids and hosted links' tokens, so
// the label set stays bounded whatever is requested.
import type { Metrics } from '../metrics/metrics.ts';
import type { HttpApp } from './types.ts';

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function installHttpMetrics(app: HttpApp, metrics: Metrics): void {
  app.decorateRequest('problemCode', undefined);
  app.addHook('onResponse', (request, reply, done) => {
    const method = methods.has(request.method) ? request.method : 'OTHER';
    metrics.httpRequest(method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    if (request.problemCode === 'RATE_LIMITED') metrics.rateLimited();
    done();
  });
}
