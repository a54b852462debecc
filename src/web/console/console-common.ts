// What the console's pages share: the paging query of every list, the id parameters, the operator as
// the audit log names them, and the step-up before evidence.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Actor } from '../../modules/audit/audit.service.ts';
import { viewerOf, type Viewer } from '../area.ts';
import { stepUpPath } from '../second-factor.ts';
import { stepUpDue } from '../sign-in-steps.ts';
import type { ConsoleDeps } from './console-deps.ts';
import { html, type Html } from '../html.ts';

/** `?limit=&from=` of a list page (ui.pager's links). */
export const pageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  from: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
};

/** A list filter: one of `values`, or blank (a filter form sends an empty field for "all"). */
export function filterOf(values: readonly string[]) {
  return Type.Optional(Type.Union([...values, ''].map((v) => Type.Literal(v))));
}

/** A path parameter holding one of PVS's ids. */
export const idParam = Type.String({ minLength: 1, maxLength: 64 });

/** The signed-in operator as the audit log records them. */
export function operatorActor(viewer: Viewer): Actor {
  return { kind: 'OPERATOR', id: viewer.accountId, email: viewer.email };
}

/** A table cell of several lines (a name above its id); empty lines are left out. */
export function cellOf(...lines: unknown[]): Html {
  const shown = lines.filter((line) => line !== null && line !== undefined && line !== '');
  return html`${shown.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}`;
}

/**
 * Text that may wrap after its underscores and dots (AML_POSSIBLE_MATCH, partner.disabled) and before an
 * email's @, rather than in the middle of a word, where the stylesheet lets table cells break anywhere.
 */
export function breakable(text: string): Html {
  return html`${text.split(/(?<=[_.])|(?=@)/).map((part, i) => html`${i > 0 ? html`<wbr>` : ''}${part}`)}`;
}

/** A code such as AML_POSSIBLE_MATCH, in monospace. */
export function codeText(code: string): Html {
  return html`<span class="mono">${breakable(code)}</span>`;
}

/** Whose a row is: the partner's name, linking to its page (its id when the name is unknown). */
export function partnerLink(partnerId: string, names: Map<string, string>): Html {
  return html`<a href="/console/partners/${partnerId}">${names.get(partnerId) ?? partnerId}</a>`;
}

/**
 * Before a page that shows identity documents or AML evidence: when the session's last second factor is
 * older than MFA_STEP_UP_MINUTES, the operator is sent to enter a fresh code, and comes back to `next`.
 * Answers that redirect, or undefined when the page may be shown.
 */
export function stepUpFirst(request: FastifyRequest, reply: FastifyReply, deps: Pick<ConsoleDeps, 'clock' | 'config'>, next: string): FastifyReply | undefined {
  if (!stepUpDue(viewerOf(request).session, deps.clock.now(), deps.config.MFA_STEP_UP_MINUTES)) return undefined;
  return reply.redirect(stepUpPath('console', next), 303);
}
