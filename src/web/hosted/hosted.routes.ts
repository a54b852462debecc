// The hosted pages a partner's customer opens from a link (no partner credentials: the link's token is
// the authority), and the calls those pages make.
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CardLinkService } from '../../modules/billing/card-links.service.ts';
import type { PaymentLinkService } from '../../modules/payments/payment-links.service.ts';
import { verificationSessionCookie } from '../../modules/verifications/verification-sessions.routes.ts';
import type { VerificationSessionService } from '../../modules/verifications/verification-sessions.service.ts';
import { PayBody, PayResult } from '../../modules/payments/payments.schemas.ts';
import { AppError } from '../../platform/errors.ts';
import { SaveCardBody, SavedCard } from '../../modules/billing/billing.schemas.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { cookieOf } from '../area.ts';
import { cardFormCsp } from './card-form.ts';
import { cardLinkNotice, renderCardPage } from './card-page.ts';
import { linkNoticeCsp, renderLinkNotice, type LinkNotice } from './link-notice.ts';
import { paymentLinkNotice, renderPaymentPage } from './payment-page.ts';
import { renderVerificationPage, verificationLinkNotice, verificationPageCsp, verificationPagePermissions } from './verification-page.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 128, description: 'The link token from the URL.', examples: ['Hd0cjXiaPf47IALoqM4KjIDCTxRYlswl3uI4oK339HY'] }) });

const assets: Record<string, { type: string; body: Buffer }> = Object.fromEntries(
  [
    ['card-form.js', 'text/javascript; charset=utf-8'],
    ['card-page.js', 'text/javascript; charset=utf-8'],
    ['payment-page.js', 'text/javascript; charset=utf-8'],
    ['verification-page.js', 'text/javascript; charset=utf-8'],
    ['hosted.css', 'text/css; charset=utf-8'],
  ].map(([name, type]) => [name, { type: type!, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) }]),
);

/**
 * What a link's page answers: the live page with its policy (and any other headers it needs), or the
 * notice that says why there is none.
 */
type LinkPage = { live: string; csp: string; headers?: Record<string, string> } | { status: number; notice: LinkNotice };

export function registerHostedRoutes(
  app: HttpApp,
  deps: { cardLinks: CardLinkService; paymentLinks: PaymentLinkService; verificationSessions: Pick<VerificationSessionService, 'linkPage'>; runWindowSeconds: number },
): void {
  const sendNotice = (reply: FastifyReply, { status, notice }: { status: number; notice: LinkNotice }) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('content-security-policy', linkNoticeCsp)
      .send(renderLinkNotice(notice));

  /** A page a person opens from a link; `unknown` is the notice for a link that does not exist. */
  function linkPage(path: string, render: (token: string, request: FastifyRequest) => Promise<LinkPage>, unknown: { status: number; notice: LinkNotice }): void {
    app.get(
      path,
      {
        schema: { hide: true, params: TokenParams },
        // A token the edge refuses (a mangled link, `%00`) is a link that does not exist, shown as the page
        // that says so rather than as JSON.
        errorHandler: (error, _request, reply) => {
          const refused = (error instanceof AppError && error.code === 'VALIDATION_ERROR') || (error as { validation?: unknown }).validation !== undefined;
          if (refused) return sendNotice(reply, unknown);
          throw error;
        },
      },
      async (request, reply) => {
        const answer = await render(request.params.token, request);
        if ('notice' in answer) return sendNotice(reply, answer);
        if (answer.headers) reply.headers(answer.headers);
        return reply.type('text/html; charset=utf-8').header('cross-origin-opener-policy', 'same-origin').header('content-security-policy', answer.csp).send(answer.live);
      },
    );
  }

  linkPage(
    '/c/:token',
    async (token) => {
      const view = await deps.cardLinks.view(token);
      if (view.state !== 'LIVE') return cardLinkNotice(view.state);
      return { csp: cardFormCsp(view.hostedFields), live: renderCardPage(view, { saveUrl: `/hosted/v1/card-links/${token}`, runWindowSeconds: deps.runWindowSeconds }) };
    },
    cardLinkNotice('UNKNOWN'),
  );

  linkPage(
    '/p/:token',
    async (token) => {
      const view = await deps.paymentLinks.view(token);
      if (view.state !== 'LIVE') return paymentLinkNotice(view.state);
      return { csp: cardFormCsp(view.hostedFields), live: renderPaymentPage(view, { payUrl: `/hosted/v1/payment-links/${token}` }) };
    },
    paymentLinkNotice('UNKNOWN'),
  );

  // Loading the page never spends the link: its script does, once the person agrees (so a link preview
  // cannot). A session cookie of the link's own person picks the flow up where it was.
  linkPage(
    '/v/:token',
    async (token, request) => {
      const state = await deps.verificationSessions.linkPage(token, cookieOf(request, verificationSessionCookie));
      if (state.kind === 'unknown' || state.kind === 'invalid') return verificationLinkNotice(state);
      return { csp: verificationPageCsp, headers: { 'permissions-policy': verificationPagePermissions }, live: renderVerificationPage(state) };
    },
    verificationLinkNotice({ kind: 'unknown' }),
  );

  app.post(
    '/hosted/v1/card-links/:token',
    {
      schema: {
        tags: ['hosted'],
        summary: 'Save the card tokenised on a card page',
        description:
          'Called by the hosted card page with the gateway’s token, never with a card number. 402 CARD_DECLINED (with declineCode) leaves the link usable; 410 LINK_INVALID when the link is spent, replaced or expired.',
        operationId: 'saveCardFromLink',
        params: TokenParams,
        body: SaveCardBody,
        response: { 200: SavedCard },
      },
    },
    async (request) => deps.cardLinks.saveCard(request.params.token, request.body.paymentToken),
  );

  app.post(
    '/hosted/v1/payment-links/:token',
    {
      schema: {
        tags: ['hosted'],
        summary: 'Pay with the card tokenised on a payment page',
        description:
          'Called by the hosted payment page with the gateway’s token, never with a card number; the card is charged once for the payment’s amount. 200 {status: SUCCEEDED}. A decline is 402 CARD_DECLINED with `declineCode` and `paymentStatus`: PROCESSING (insufficient funds and other retryable declines: the link stays usable, try another card) or FAILED (a hard decline: the payment is closed). 410 LINK_INVALID (with `linkState`) when the payment is paid, cancelled or failed, or the link was replaced or has expired; 503 when the gateway did not answer (the attempt is settled later, never charged twice).',
        operationId: 'payFromLink',
        params: TokenParams,
        body: PayBody,
        response: { 200: PayResult },
      },
    },
    async (request) => deps.paymentLinks.pay(request.params.token, request.body.paymentToken),
  );

  app.get('/hosted/assets/:name', { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    // Own keys only: `constructor` and friends are not assets.
    const asset = Object.hasOwn(assets, request.params.name) ? assets[request.params.name] : undefined;
    if (!asset) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').header('cross-origin-resource-policy', 'same-origin').send(asset.body);
  });
}
