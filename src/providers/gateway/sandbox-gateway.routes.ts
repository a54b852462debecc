// The sandbox gateway's tokenisation endpoint, imitating a gateway's hosted fields: the card page
// posts card details here and gets back a token; only the token ever reaches PVS's own API. It answers
// in the gateway's own error format (not PVS problem+json), as a real gateway would.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CardInput, PaymentGateway } from './gateway.ts';

const allowed = new Set(['number', 'expMonth', 'expYear', 'cvc', 'name']);

function gatewayError(param: string, code: string, message: string) {
  return { error: { type: 'invalid_request_error', code, param, message } };
}

/** Reads the request as the gateway would; a two-digit year means 20YY. */
function readCard(body: unknown): { ok: true; card: CardInput } | { ok: false; error: ReturnType<typeof gatewayError> } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, error: gatewayError('', 'parameter_missing', 'Send a JSON object.') };
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !allowed.has(k));
  if (unknown) return { ok: false, error: gatewayError(unknown, 'parameter_unknown', `Received unknown parameter: ${unknown}`) };
  if (typeof b.number !== 'string') return { ok: false, error: gatewayError('number', 'parameter_missing', 'Missing required param: number.') };
  const month = typeof b.expMonth === 'string' ? Number(b.expMonth) : b.expMonth;
  const year = typeof b.expYear === 'string' ? Number(b.expYear) : b.expYear;
  if (typeof month !== 'number' || !Number.isFinite(month)) return { ok: false, error: gatewayError('expMonth', 'parameter_missing', 'Missing required param: expMonth.') };
  if (typeof year !== 'number' || !Number.isFinite(year)) return { ok: false, error: gatewayError('expYear', 'parameter_missing', 'Missing required param: expYear.') };
  if (typeof b.cvc !== 'string') return { ok: false, error: gatewayError('cvc', 'parameter_missing', 'Missing required param: cvc.') };
  if (b.name !== undefined && (typeof b.name !== 'string' || b.name.length > 200)) return { ok: false, error: gatewayError('name', 'invalid_string', 'Invalid name.') };
  return {
    ok: true,
    card: { number: b.number.slice(0, 40), expMonth: month, expYear: year < 100 ? 2000 + year : year, cvc: b.cvc.slice(0, 8), name: b.name as string | undefined },
  };
}

export function registerSandboxGatewayRoutes(app: FastifyInstance, deps: { gateway: PaymentGateway }): void {
  // The body is any JSON (readCard checks it, in the gateway's words); declared so that PVS's edge takes one.
  app.post('/sandbox-gateway/v1/tokens', { schema: { hide: true, body: Type.Unknown() }, bodyLimit: 4096 }, async (request, reply) => {
    const read = readCard(request.body);
    if (!read.ok) return reply.code(400).send(read.error);
    const result = await deps.gateway.tokenise(read.card);
    if (result.ok) return { token: result.token, card: result.card };
    if (result.kind === 'invalid') return reply.code(402).send({ error: { type: 'card_error', code: result.declineCode, param: result.field, message: result.message } });
    if (result.kind === 'declined') {
      return reply.code(402).send({ error: { type: 'card_error', code: 'card_declined', decline_code: result.declineCode, message: result.message } });
    }
    return reply.code(503).send({ error: { type: 'api_error', message: result.message } });
  });
}
