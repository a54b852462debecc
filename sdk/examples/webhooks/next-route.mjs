// Receiving PVS webhooks in a Next.js route handler (App Router): save as app/webhooks/pvs/route.js (or
// .ts). A route handler gets a Web Request, which nothing has parsed: read it with request.text() (or
// arrayBuffer()), never request.json(), and verify those exact bytes.
// @ts-check
import { constructEvent, WebhookVerificationError } from '@pvs/client';

// Node's crypto verifies the signature: not the Edge runtime.
export const runtime = 'nodejs';

/** @param {Request} request */
export async function POST(request) {
  const rawBody = await request.text();
  let event;
  try {
    event = constructEvent(rawBody, request.headers, process.env.PVS_WEBHOOK_SECRET ?? '');
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response(error.message, { status: error.status });
    throw error;
  }
  await handle(event); // keep it short: PVS waits 5 s for the answer
  return new Response(null, { status: 200 });
}

/**
 * Your work: de-duplicate on event.eventId, then act on the types you know and ignore the rest.
 * @param {import('@pvs/client').WebhookEvent} event
 */
export async function handle(event) {
  if (event.type === 'verification.individual.passed') console.log('passed', event.verificationRequestId, event.individualId);
}
