// Builds the HTTP server from the services it is given. It chooses nothing; services.ts does.
import formBody from '@fastify/formbody';
import { registerWebAssets } from './web/assets.ts';
import { registerGuides } from './web/docs/guides.ts';
import { registerReference, registerReferenceAssets } from './web/docs/reference/reference.ts';
import { consoleArea } from './web/console/console.ts';
import { portalArea } from './web/portal/portal.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type RouteOptions } from 'fastify';
import { registerAdminRoutes } from './admin/admin.routes.ts';
import { isLocalStorage } from './providers/storage/index.ts';
import { registerStorageRoutes } from './providers/storage/storage.routes.ts';
import { registerSandboxGatewayRoutes } from './providers/gateway/sandbox-gateway.routes.ts';
import { registerHostedRoutes } from './web/hosted/hosted.routes.ts';
import { eventsTag, eventWebhooks } from './modules/webhooks/webhooks.openapi.ts';
import { newId } from './platform/ids.ts';
import { describeRoutesIn, registerOpenApi } from './platform/http/openapi.ts';
import { partnerApi, type PartnerApi } from './platform/http/partner-api.ts';
import { opsApi, type OpsApi } from './platform/http/ops-api.ts';
import { installInputGuard } from './platform/http/input-guard.ts';
import { installLoadShedding } from './platform/http/load-shedding.ts';
import { clientErrorHandler, frameworkErrors, installProblemHandling, maxPathParameterLength } from './platform/http/problem.ts';
import { installHttpMetrics } from './platform/http/metrics-hooks.ts';
import { activeTracing } from './platform/tracing/tracing.ts';
import { installRequestHooks } from './platform/http/request-hooks.ts';
import type { HttpApp } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import type { Services } from './services.ts';

export const bodyLimitBytes = 1024 * 1024;

const incomingRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildAppOptions {
  /** Extra /v1 routes (tests exercise platform plumbing through routes of their own). */
  extraPartnerRoutes?: (api: PartnerApi) => void;
  /** Extra /ops/v1 routes behind the operator guard (tests of the guard itself). */
  extraOpsRoutes?: (api: OpsApi) => void;
  /** Sees every route as it is registered, documented or not (the fuzz suite walks them all). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(services: Services, options: BuildAppOptions = {}): Promise<HttpApp> {
  const { config } = services;
  const app: HttpApp = Fastify({
    loggerInstance: services.logger as FastifyBaseLogger,
    // installRequestHooks writes one access line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: bodyLimitBytes,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && incomingRequestId.test(incoming) ? incoming : newId('request');
    },
    routerOptions: { maxParamLength: maxPathParameterLength },
    // A request whose body has not arrived in 2 minutes is cut off: slow senders must not hold the
    // in-flight slots (load shedding) for ever. Files go to storage, not the API.
    requestTimeout: 120_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Requests Node's HTTP parser refuses (bad header bytes, oversized headers) never reach a route;
    // nor do URLs the router cannot decode.
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // A span per request when tracing is on: first, so that every hook and handler is inside it.
  const tracing = activeTracing();
  if (tracing) await app.register(tracing.fastifyPlugin());
  app.setValidatorCompiler(validatorCompiler);
  installProblemHandling(app);
  // In this order: every answer, refusals included, carries the security headers and the request id;
  // shedding comes before anything that costs work; then the input guard.
  installRequestHooks(app, { production: config.ENVIRONMENT === 'production' });
  if (services.metrics.enabled) installHttpMetrics(app, services.metrics);
  installLoadShedding(app, { maxInFlight: config.MAX_IN_FLIGHT_REQUESTS });
  installInputGuard(app, { bodyLimit: bodyLimitBytes });
  // The partner's and the operators' API documents (/openapi.json, /ops/openapi.json) and their pages.
  const documents = await registerOpenApi(app, {
    publicBaseUrl: config.PUBLIC_BASE_URL,
    operatorsDocument: config.ENVIRONMENT === 'production' ? 'operators' : 'open',
    operators: services.operators,
    webhooks: { operations: eventWebhooks(), tag: eventsTag },
  });
  // The API reference (/docs, /docs/ops in the sandbox) and the guides in docs/ as pages
  // (/docs/guides/<name>), which the documents' descriptions link to.
  registerReferenceAssets(app);
  registerReference(app, { prefix: '/docs', title: 'PVS partner API', documentUrl: '/openapi.json', document: () => documents.documentOf('partner') });
  if (documents.operatorsPage) {
    registerReference(app, { prefix: '/docs/ops', title: 'PVS operator API', documentUrl: '/ops/openapi.json', document: () => documents.documentOf('operators') });
  }
  registerGuides(app);
  // Only the token endpoint takes a form; the /v1 plugin refuses it.
  await app.register(formBody, { bodyLimit: 16 * 1024 });

  // Each module's routes (services.routes), in the order the OpenAPI document lists them.
  const { routes } = services;
  const modules = [
    routes.system,
    routes.auth,
    routes.partners,
    routes.operators,
    routes.webhooks,
    routes.billing,
    routes.lookups,
    routes.payments,
    routes.verifications,
    routes.settings,
    routes.deeds,
    routes.monitoring,
  ];

  // Outside every guard: health, the token endpoint, the person's hosted session, the hosted pages.
  for (const module of modules) await module.public?.(app);
  registerAdminRoutes(app, services);
  registerHostedRoutes(app, { cardLinks: services.cardLinks, paymentLinks: services.paymentLinks, verificationSessions: services.verificationSessions, runWindowSeconds: config.BILLING_RUN_WINDOW_SECONDS });
  // URLs that carry their own permission (a signature): the reports, and the uploads to local storage.
  for (const module of modules) await module.signed?.(app);
  if (isLocalStorage(services.storage)) await registerStorageRoutes(app, { storage: services.storage });
  // The sandbox gateway's tokenisation endpoint stands in for the gateway's own hosted fields.
  if (services.gateway.name === 'sandbox') registerSandboxGatewayRoutes(app, { gateway: services.gateway });
  // Registered inside partnerApi: that is what makes a /v1 route authenticated and tenant-scoped.
  await app.register(
    partnerApi({ tokens: services.tokens, limiter: services.apiLimiter }, (api) => {
      for (const module of modules) module.partner?.(api);
      options.extraPartnerRoutes?.(api);
    }),
    { prefix: '/v1' },
  );
  // The partner portal and the operator console: server-rendered pages behind sessions (src/web/area.ts).
  registerWebAssets(app);
  await app.register(portalArea(services), { prefix: '/portal' });
  await app.register(consoleArea(services), { prefix: '/console' });
  // PVS's own operators (docs/operators.md): signing in is public; every other /ops/v1 route is
  // registered inside opsApi, which is what makes it need an operator token. Everything under /ops/v1 is
  // described in the operators' API document, never in the partner's.
  await app.register(
    async (ops: HttpApp) => {
      describeRoutesIn(ops, 'operators');
      for (const module of modules) if (module.opsSignIn) await ops.register(module.opsSignIn);
      await ops.register(
        opsApi({ operators: services.operators }, (api) => {
          for (const module of modules) module.ops?.(api);
          options.extraOpsRoutes?.(api);
        }),
      );
    },
    { prefix: '/ops/v1' },
  );

  return app;
}
