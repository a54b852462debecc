import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { Page } from '../../platform/http/pagination.ts';
import type { PartnerApi } from '../../platform/http/partner-api.ts';
import type { PaymentService } from './payments.service.ts';
import { CreatePaymentBody, Payment, PaymentListQuery, PaymentParams } from './payments.schemas.ts';

/** A replay never shows a link again: the stored copy has no URL. */
const withoutUrl = ({ paymentUrl: _url, ...rest }: Payment) => rest;

export function registerPaymentRoutes(api: PartnerApi, deps: { payments: PaymentService; idempotency: Idempotency }): void {
  const tags = ['payments'];
  const { payments } = deps;

  api.post(
    '/payments',
    {
      schema: {
        tags,
        summary: 'Create an ATO payment and its hosted payment link',
        description:
          'Emits payment.created. Send the payer `paymentUrl`: it is answered here and by `…/link` only, never on a read; an Idempotency-Key replay answers without it. `prn` is checked for 12 to 18 digits (spaces removed), `amount` against the configured maximum; each problem comes back with its pointer.',
        operationId: 'createPayment',
        headers: Type.Object(IdempotencyHeaders),
        body: CreatePaymentBody,
        response: { 201: Payment },
      },
    },
    async (request, reply) => deps.idempotency.run(request, reply, 201, (tx) => payments.create(tx, request.tenant, request.body), { stored: withoutUrl }),
  );

  api.get(
    '/payments',
    { schema: { tags, summary: 'List payments, oldest first', operationId: 'listPayments', querystring: PaymentListQuery, response: { 200: Page(Payment) } } },
    async (request) => payments.list(request.tenant, request.query),
  );

  api.get(
    '/payments/:id',
    { schema: { tags, summary: 'One payment (without its link)', operationId: 'getPayment', params: PaymentParams, response: { 200: Payment } } },
    async (request) => payments.get(request.tenant, request.params.id),
  );

  api.post(
    '/payments/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a payment',
        description:
          'CREATED or PROCESSING only (otherwise 409 INVALID_STATE naming the status); also 409, with Retry-After, while a card is being charged for it. Emits payment.cancelled; the link then answers 410.',
        operationId: 'cancelPayment',
        params: PaymentParams,
        response: { 200: Payment },
      },
    },
    async (request) => payments.cancel(request.tenant, request.params.id),
  );

  api.post(
    '/payments/:id/link',
    {
      schema: {
        tags,
        summary: 'Regenerate the hosted payment link',
        description:
          'Answers the payment with a new `paymentUrl` (shown this once) and emits payment.link_regenerated with `newUrl`; the previous link stops working from now on. CREATED or PROCESSING payments only (409 INVALID_STATE).',
        operationId: 'regeneratePaymentLink',
        headers: Type.Object(IdempotencyHeaders),
        params: PaymentParams,
        response: { 200: Payment },
      },
    },
    async (request, reply) => deps.idempotency.run(request, reply, 200, (tx) => payments.regenerateLink(tx, request.tenant, request.params.id), { stored: withoutUrl }),
  );
}
