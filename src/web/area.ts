// A signed-in web area (/portal, /console): every route registered through `webArea` is a page behind a
// session. The plugin reads the session cookie and the account behind it on every request (a disabled
// account, a disabled partner or a changed password ends the session at once), sends a signed-out reader
// to the sign-in page, holds a session with a sign-in step still to take (its own password, its second
// factor: sign-in-steps.ts) to that step's page, and refuses every POST without the session's CSRF token.
// Answers are HTML, errors included.
import { AppError } from '../platform/errors.ts';
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../platform/http/types.ts';
import { optionalBodyKeyword } from '../platform/http/validation.ts';
import { html } from './html.ts';
import { cookieOf, pageCsp, sessionCookie, type AreaConfig, type Viewer } from './pages.ts';
import { registerSecondFactor } from './second-factor.ts';
import { registerEnrolment } from './enrol-second-factor.ts';
import { registerPasskeyRemoval } from './account-passkeys.ts';
import { pendingStep, stepPath } from './sign-in-steps.ts';
import { sameToken } from './session/sessions.service.ts';
import { registerSignIn } from './sign-in.ts';
import { errorPage } from './error-page.ts';

// The pages' helpers live in pages.ts (the sign-in and error pages use them too); pages import them from here.
export { cookieOf, formOf, formValues, pageCsp, sendPage, sessionCookie, tenantOfViewer, viewerOf, type AreaConfig, type Viewer } from './pages.ts';

// Optional: a form with no fields (sign-out forged without its token) is an empty form, refused for its
// missing token rather than as unreadable.
const formSchema = {
  [optionalBodyKeyword]: true,
  type: 'object',
  maxProperties: 100,
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 10_000 }, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 10_000 } }] },
};

export function webArea(config: AreaConfig, register: (app: HttpApp) => void) {
  const { area } = config;

  /** Who the session cookie signs in, and the step they must still take; undefined when nobody. */
  async function viewerOfSession(request: FastifyRequest): Promise<Viewer | undefined> {
    const session = await config.sessions.find(area, cookieOf(request, sessionCookie(area)));
    const account = session && (await config.accounts.current(session.accountId, session.createdAt));
    const described = account && (await config.describe(account));
    if (!session || !account || !described) return undefined;
    const step = await pendingStep(session, account, () => config.requiresSecondFactor(account));
    return { area, accountId: account.id, email: account.email, session, nav: config.nav, ...described, pendingStep: step };
  }

  return async function plugin(app: HttpApp) {
    app.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as Record<string, unknown>;
      schema.hide = true;
      // A page's form: text fields, one value or several (checkboxes); each handler reads what it knows.
      if (route.method === 'POST' && !schema.body) schema.body = formSchema;
      route.config = { ...(route.config as object), webForm: true } as typeof route.config;
    });

    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('content-security-policy', pageCsp);
      reply.header('cross-origin-opener-policy', 'same-origin');
      reply.header('cache-control', 'no-store');
      done();
    });

    app.addHook('preHandler', async (request, reply) => {
      const { config: routeConfig } = request.routeOptions;
      if (routeConfig.signedOut) return;
      const viewer = await viewerOfSession(request);
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      if (!viewer) return reply.redirect(`/${area}/login${next}`, 303);
      request.viewer = viewer;
      const step = viewer.pendingStep;
      if (step === 'password' && !routeConfig.passwordChange) return reply.redirect(stepPath(area, step), 303);
      // The second factor's pages keep where the reader was going, and send them there once it is done.
      if ((step === 'second-factor' || step === 'enrol') && !routeConfig.secondFactor) return reply.redirect(`${stepPath(area, step)}${next}`, 303);
      if (request.method === 'POST' && !sameToken(((request.body ?? {}) as Record<string, unknown>)._csrf as string | undefined, viewer.session.csrfAccepted)) {
        request.log.warn({ route: request.routeOptions.url }, 'form refused: missing or wrong CSRF token');
        return errorPage(reply, 403, 'This form could not be accepted', 'It was sent without this session’s security token, or from another page. Go back, reload the page and send it again.');
      }
    });

    app.setErrorHandler((error, request, reply) => {
      if (error instanceof AppError) {
        if (error.code === 'NOT_FOUND') return errorPage(reply, 404, 'Page not found', 'There is nothing here, or it is not yours to see.');
        if (error.code === 'VALIDATION_ERROR') {
          const items = error.errors?.map((p) => html`<li><span class="mono">${p.pointer}</span> ${p.message}</li>`);
          return errorPage(reply, 400, 'That request could not be read', html`<p>${error.message}</p>${items ? html`<ul>${items}</ul>` : ''}`);
        }
        return errorPage(reply, error.status, 'That could not be done', error.message);
      }
      if ((error as { validation?: unknown }).validation) return errorPage(reply, 400, 'That request could not be read', 'A parameter of this page is not valid. Check the address.');
      // Refused by the framework before any route ran (an unsupported body type, a body too large).
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return errorPage(reply, status, 'That request could not be read', 'It was not sent the way this site’s forms send it. Go back, reload the page and send it again.');
      }
      request.log.error({ err: error }, 'page failed');
      return errorPage(reply, 500, 'Something went wrong on our side', html`The page could not be shown. If it keeps happening, quote the request id <span class="mono">${request.id}</span>.`);
    });

    app.setNotFoundHandler(async (request, reply) => {
      // A page that does not exist is answered alike whether or not anyone is signed in.
      const viewer = await viewerOfSession(request);
      if (viewer && !viewer.pendingStep) request.viewer = viewer;
      reply.header('content-security-policy', pageCsp);
      return errorPage(reply, 404, 'Page not found', 'There is nothing here, or it is not yours to see.');
    });

    registerSignIn(app, config);
    registerSecondFactor(app, config);
    registerEnrolment(app, config);
    registerPasskeyRemoval(app, config);
    register(app);
  };
}
