// The hosted pages a partner's customer opens from a link (no partner credentials: the link's token is
// the authority), and the calls those pages make.
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { CardLinkService, LinkState } from '../../modules/billing/card-links.service.ts';
import { AppError } from '../../platform/errors.ts';
import { SaveCardBody, SavedCard } from '../../modules/billing/billing.schemas.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { cardPageCsp, renderCardPage, renderLinkState, stateStatus } from './card-page.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 128, description: 'The link token from the URL.' }) });

const assets: Record<string, { type: string; body: Buffer }> = Object.fromEntries(
  [
    ['card-page.js', 'text/javascript; charset=utf-8'],
    ['hosted.css', 'text/css; charset=utf-8'],
  ].map(([name, type]) => [name, { type: type!, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) }]),
);

export function registerHostedRoutes(app: HttpApp, deps: { cardLinks: CardLinkService; runWindowSeconds: number }): void {
  const sendLinkState = (reply: FastifyReply, state: Exclude<LinkState, 'LIVE'>) =>
    reply
      .code(stateStatus[state])
      .type('text/html; charset=utf-8')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('content-security-policy', "default-src 'none'; style-src 'self'; img-src data:; frame-ancestors 'none'")
      .send(renderLinkState(state));

  app.get(
    '/c/:token',
    {
      schema: { hide: true, params: TokenParams },
      // A person opens this from a link: a token the edge refuses (a mangled link, `%00`) is a link that
      // does not exist, shown as the page that says so rather than as JSON.
      errorHandler: (error, _request, reply) => {
        const refused = (error instanceof AppError && error.code === 'VALIDATION_ERROR') || (error as { validation?: unknown }).validation !== undefined;
        if (refused) return sendLinkState(reply, 'UNKNOWN');
        throw error;
      },
    },
    async (request, reply) => {
      const view = await deps.cardLinks.view(request.params.token);
      reply.type('text/html; charset=utf-8').header('cross-origin-opener-policy', 'same-origin');
      if (view.state !== 'LIVE') return sendLinkState(reply, view.state);
      reply.header('content-security-policy', cardPageCsp(view));
      return renderCardPage(view, { saveUrl: `/hosted/v1/card-links/${request.params.token}`, runWindowSeconds: deps.runWindowSeconds });
    },
  );

  app.post(
    '/hosted/v1/card-links/:token',
    {
      schema: {
        tags: ['hosted pages'],
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

  app.get('/hosted/assets/:name', { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    const asset = assets[request.params.name];
    if (!asset) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').header('cross-origin-resource-policy', 'same-origin').send(asset.body);
  });
}
