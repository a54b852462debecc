// What a web area's pages and its sign-in share (area.ts puts them together): who is looking at a page,
// the area's configuration, the page frame, and reading a form or a cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRow } from '../modules/accounts/accounts.repository.ts';
import type { PasswordAccounts } from '../modules/accounts/password-accounts.ts';
import type { SecondFactors } from '../modules/accounts/second-factors.ts';
import type { RateLimiter } from '../platform/rate-limit.ts';
import type { Tenant } from '../platform/tenancy.ts';
import type { Html } from './html.ts';
import type { SessionService, WebArea, WebSession } from './session/sessions.service.ts';
import type { SignInStep } from './sign-in-steps.ts';
import { renderShell, type NavItem } from './shell.ts';

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
  /** The sign-in step this session must still take (sign-in-steps.ts); undefined once signed in. */
  pendingStep?: SignInStep;
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
    /** A page a session that must still check or enrol a second factor may open. */
    secondFactor?: boolean;
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
  /** The second factors of the area's accounts. */
  factors: SecondFactors;
  /** Whether the account must have a second factor before any page opens. */
  requiresSecondFactor(account: AccountRow): Promise<boolean>;
  /** The console's step-up: minutes a second factor stays fresh for the pages that show evidence. */
  stepUpMinutes?: number;
  /** Per client address: the posts of the sign-in, password and second-factor forms (shared across nodes). */
  signInLimiter: RateLimiter;
  /** Called once a person signs in or out, or changes how they do, for the audit log. */
  onSignIn?(account: AccountRow, event: SignInEvent, detail?: Record<string, unknown>): Promise<void>;
}

/** What the audit log records of signing in, as `session.<event in lower case>`. */
export type SignInEvent = 'SIGNED_IN' | 'SIGNED_OUT' | 'PASSWORD_REPLACED' | 'SECOND_FACTOR_ENROLLED' | 'RECOVERY_CODE_USED' | 'STEPPED_UP' | 'PASSKEY_ADDED' | 'PASSKEY_REMOVED';

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
export function sendPage(reply: FastifyReply, options: { title: string; body: Html; current?: string; status?: number; scripts?: string[] }): FastifyReply {
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
        scripts: options.scripts,
        viewer: viewer && {
          email: viewer.email,
          context: viewer.partnerName,
          csrf: viewer.session.csrfToken,
          // Until the sign-in is done the other pages would only send the reader back here.
          nav: viewer.pendingStep ? [] : viewer.nav,
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
