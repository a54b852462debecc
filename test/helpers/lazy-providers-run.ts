// The process test/lazy-providers.test.ts starts, under record-loads.mjs or fail-loads.mjs: the whole service
// (createServices on a fresh embedded database, buildApp) configured with every heavy provider there is
// (Stripe, S3), driven through app.inject. It prints one JSON line of what it saw and exits.
//
//   start    /ready and a few partner calls that need no heavy provider (the loads are the point)
//   failing  each heavy provider's first use while its package cannot be loaded, then again, then (where
//            it can be made to happen) the provider's own outage, to compare the answers
//
// It imports nothing heavy itself, and of the helpers only context.ts and tiny-pdf.ts: the recording must see
// the service's loads, not a helper's.
import { createServer, type AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { inspectPdf } from '../../src/modules/deeds/pipeline/inspect.ts';
import { createTestContext, type TestContext, type TestPartner } from './context.ts';
import { tinyPdf } from './tiny-pdf.ts';

const scenario = process.argv[2];

/** A local port nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An answer as the partner sees it: status, the headers that matter, and the body. */
interface Answer {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  body: unknown;
}

async function call(t: TestContext, options: InjectOptions): Promise<Answer> {
  const res = await t.app.inject(options);
  const contentType = res.headers['content-type'] as string | undefined;
  const json = contentType?.includes('json') ?? false;
  return { status: res.statusCode, contentType, retryAfter: res.headers['retry-after'] as string | undefined, body: json ? res.json() : { bytes: res.rawPayload.length, head: res.rawPayload.subarray(0, 5).toString('latin1') } };
}

async function startScenario(t: TestContext, partner: TestPartner) {
  const ready = await call(t, { method: 'GET', url: '/ready' });
  const contact = await call(t, { method: 'POST', url: '/v1/contacts', headers: partner.headers, payload: { name: 'Wattle Creek Pty Ltd' } });
  const verification = await call(t, { method: 'POST', url: '/v1/verifications', headers: partner.headers, payload: { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP' }] } });
  const payment = await call(t, { method: 'POST', url: '/v1/payments', headers: partner.headers, payload: { amount: 125_000, prn: '551234567890123' } });
  return { ready: ready.status, contact: contact.status, verification: verification.status, payment: payment.status };
}

async function failingScenario(t: TestContext, partner: TestPartner) {
  const headers = partner.headers;

  // S3 (STORAGE=s3): a deed's signed upload needs the AWS SDK; its start asks S3, which is not there.
  const storageLoadFailed = await call(t, { method: 'POST', url: '/v1/deed-analyses', headers, payload: {} });
  const storageLoaded = await call(t, { method: 'POST', url: '/v1/deed-analyses', headers, payload: {} });
  const deedId = (storageLoaded.body as { deedAnalysis?: { id: string } }).deedAnalysis?.id;
  const storageOutage = await call(t, { method: 'POST', url: `/v1/deed-analyses/${deedId}/start`, headers });

  // Stripe (PAYMENT_GATEWAY=stripe): saving a card on the hosted card page needs the SDK; then Stripe is not there.
  const contact = (await call(t, { method: 'POST', url: '/v1/contacts', headers, payload: { name: 'Banksia Holdings Pty Ltd' } })).body as { id: string };
  const link = (await call(t, { method: 'POST', url: `/v1/contacts/${contact.id}/card-link`, headers })).body as { url: string };
  const saveCard = () => call(t, { method: 'POST', url: `/hosted/v1/card-links/${link.url.split('/c/')[1]}`, payload: { paymentToken: 'pm_card_visa' } });
  const gatewayLoadFailed = await saveCard();
  const gatewayOutage = await saveCard();

  // pdfkit: an individual's report, drawn when its URL is opened.
  const created = (await call(t, { method: 'POST', url: '/v1/verifications', headers, payload: { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP' }] } })).body as {
    id: string;
    individuals: Array<{ id: string }>;
  };
  const issued = await call(t, { method: 'POST', url: `/v1/verifications/${created.id}/individuals/${created.individuals[0]!.id}/report`, headers });
  const reportUrl = (issued.body as { url: string }).url.replace(t.config.PUBLIC_BASE_URL, '');
  const reportLoadFailed = await call(t, { method: 'GET', url: reportUrl });
  const reportLoaded = await call(t, { method: 'GET', url: reportUrl });

  // pdfjs: the check a deed's start makes, as the deed module is given it.
  const inspected: unknown[] = [];
  for (let i = 0; i < 2; i++) {
    try {
      inspected.push({ answer: await inspectPdf(tinyPdf()) });
    } catch (error) {
      const e = error as { name: string; code?: string; status?: number; retryAfter?: number; message: string; cause?: unknown };
      inspected.push({ thrown: { name: e.name, code: e.code, status: e.status, retryAfter: e.retryAfter, message: e.message, cause: String((e.cause as Error | undefined)?.message) } });
    }
  }

  return { storageLoadFailed, storageLoaded, storageOutage, gatewayLoadFailed, gatewayOutage, reportLoadFailed, reportLoaded, inspected };
}

const closed = await closedPort();
const t = await createTestContext({
  env: {
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_lazyproviders',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_lazyproviders',
    STRIPE_API_BASE: `http://127.0.0.1:${closed}`,
    STORAGE: 's3',
    S3_BUCKET: 'pvs-deeds',
    S3_REGION: 'ap-southeast-2',
    S3_ENDPOINT: `http://127.0.0.1:${closed}`,
  },
});
try {
  const partner = await t.f.partner({ name: 'Ledger Tax' });
  const seen = scenario === 'start' ? await startScenario(t, partner) : await failingScenario(t, partner);
  process.stdout.write(`${JSON.stringify({ seen, logs: t.logs })}\n`);
} finally {
  await t.close();
}
