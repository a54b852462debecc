// A signed-in web area (/portal, /console): every route registered through `webArea` is a page behind a
// session. The plugin reads the session cookie and the account behind it on every request (a disabled
// account, a disabled partner or a changed password ends the session at once), sends a signed-out reader
// to the sign-in page, holds a session that must still replace its one-time password to that page, and
// refuses every POST without the session's CSRF token. Answers are HTML, errors included.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRow } from '../modules/accounts/accounts.repository.ts';
import type { PasswordAccounts } from '../modules/accounts/password-accounts.ts';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { optionalBodyKeyword } from '../platform/http/validation.ts';
import type { Tenant } from '../platform/tenancy.ts';
import { html, type Html } from './html.ts';
import type { SessionService, WebArea, WebSession } from './session/sessions.service.ts';
import { sameToken } from './session/sessions.service.ts';
import { renderShell, type NavItem } from './shell.ts';
import { registerSignIn } from './sign-in.ts';
import { errorPage } from './error-page.ts';

/** Who is looking at a page: set on every signed-in route before its handler runs. */
export interface Viewer {
  area: WebArea;
  accountId: string;
  email: string;
  session: WebSession;
  nav: NavItem[];
  /** Portal: the signed-in user's partner, the only partner whose data the pages show. */
  tenant?: Tenant;
  partnerName?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer?: Viewer;
  }
  interface FastifyContextConfig {
    /** A page that needs no session (sign-in). */
    signedOut?: boolean;
    /** A page a session that must replace its one-time password may open. */
    passwordChange?: boolean;
    /** A route taking a form from a page: its text fields may hold line breaks (a decision's note). */
    webForm?: boolean;
  }
}

export interface AreaConfig {
  area: WebArea;
  title: string;
  sessions: SessionService;
  accounts: PasswordAccounts;
  /** What the pages know of the signed-in account; undefined when it may no longer sign in (its partner disabled). */
  describe(account: AccountRow): Promise<Pick<Viewer, 'tenant' | 'partnerName'> | undefined>;
  nav: NavItem[];
  /** Called once a person signs in or out, for the audit log. */
  onSignIn?(account: AccountRow, event: 'SIGNED_IN' | 'SIGNED_OUT' | 'PASSWORD_REPLACED'): Promise<void>;
}

// Optional: a form with no fields (sign-out forged without its token) is an empty form, refused for its
// missing token rather than as unreadable.
const formSchema = {
  [optionalBodyKeyword]: true,
  type: 'object',
  maxProperties: 100,
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 10_000 }, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 10_000 } }] },
};

export const sessionCookie = (area: WebArea) => `pvs_${area}`;

/** A cookie's value from the Cookie header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const pair of request.headers.cookie?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

// No inline script or style anywhere; images only from PVS itself or inline (evidence images are
// fetched live and sent as data: URLs, never stored).
export const pageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The signed-in viewer of a page inside a web area. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new Error('viewerOf called outside a signed-in web area route');
  return request.viewer;
}

/** The partner of a portal page's viewer: every query a portal page makes is scoped by it. */
export function tenantOfViewer(request: FastifyRequest): Tenant {
  const tenant = viewerOf(request).tenant;
  if (!tenant) throw new Error('tenantOfViewer called outside the portal');
  return tenant;
}

/** Sends a page in the area's frame. */
export function sendPage(reply: FastifyReply, options: { title: string; body: Html; current?: string; status?: number }): FastifyReply {
  const viewer = reply.request.viewer;
  const area = (viewer?.area ?? reply.request.url.split('/')[1]) as WebArea;
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(
      renderShell({
        area,
        title: options.title,
        body: options.body,
        current: options.current,
        viewer: viewer && {
          email: viewer.email,
          context: viewer.partnerName,
          csrf: viewer.session.csrfToken,
          nav: viewer.nav,
        },
      }),
    );
}

/** The form's fields as one string each (a field sent twice keeps its first value); `_csrf` removed. */
export function formOf(request: FastifyRequest): Record<string, string> {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === '_csrf') continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') fields[key] = first;
  }
  return fields;
}

/** Every value of a repeated field (checkboxes). */
export function formValues(request: FastifyRequest, name: string): string[] {
  const value = ((request.body ?? {}) as Record<string, unknown>)[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function webArea(config: AreaConfig, register: (app: HttpApp) => void) {
  const { area } = config;
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
      const session = await config.sessions.find(area, cookieOf(request, sessionCookie(area)));
      const account = session && (await config.accounts.current(session.accountId, session.createdAt));
      const described = account && (await config.describe(account));
      if (!session || !account || !described) {
        const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
        return reply.redirect(`/${area}/login${next}`, 303);
      }
      request.viewer = { area, accountId: account.id, email: account.email, session, nav: config.nav, ...described };
      if (session.passwordChangeRequired && !routeConfig.passwordChange) return reply.redirect(`/${area}/password`, 303);
      if (request.method === 'POST' && !sameToken(((request.body ?? {}) as Record<string, unknown>)._csrf as string | undefined, session.csrfToken)) {
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
      const session = await config.sessions.find(area, cookieOf(request, sessionCookie(area)));
      const account = session && (await config.accounts.current(session.accountId, session.createdAt));
      const described = account && (await config.describe(account));
      if (session && account && described && !session.passwordChangeRequired) {
        request.viewer = { area, accountId: account.id, email: account.email, session, nav: config.nav, ...described };
      }
      reply.header('content-security-policy', pageCsp);
      return errorPage(reply, 404, 'Page not found', 'There is nothing here, or it is not yours to see.');
    });

    registerSignIn(app, config);
    register(app);
  };
}
