// An integration from end to end, as a partner would write one: look up a business, wait for PVS's
// webhook that says the registers have been read, then verify the people behind it with links to send
// them. Webhooks are received on this machine and verified with the client's constructEvent.
//
//   PVS_BASE_URL=http://localhost:3000 PVS_CLIENT_ID=… PVS_CLIENT_SECRET=… PVS_PARTNER_ID=… \
//     node sdk/examples/onboard-business.mjs [ABN]
//
// On `npm start`'s sandbox, the demo partner's credentials are in .data/demo-partner.json. The sandbox
// accepts a webhook destination on http://127.0.0.1; production asks for https on a public address.
// @ts-check
import { createServer } from 'node:http';
import { Pvs, constructEvent, WebhookVerificationError } from '@pvs/client';

const pvs = new Pvs({
  baseUrl: required('PVS_BASE_URL'),
  clientId: required('PVS_CLIENT_ID'),
  clientSecret: required('PVS_CLIENT_SECRET'),
  partnerId: required('PVS_PARTNER_ID'),
});
const abn = process.argv[2] ?? '54 222 222 228'; // a sandbox test number: a person and a holding company

/** Events by type and subject, as they arrive: the first of each is kept, and whoever waits for it is told. */
const received = new Map();
const waiting = new Map();
let secret = '';

// The receiver reads the raw bytes: a signature is over exactly what PVS sent, never a re-serialised body.
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let event;
    try {
      event = constructEvent(Buffer.concat(chunks), req.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.error(`refused a delivery: ${error.message}`);
      return res.writeHead(error.status).end();
    }
    res.writeHead(200).end(); // answer at once; the work happens after
    const key = `${event.type} ${subjectOf(event)}`;
    if (!received.has(key)) received.set(key, event);
    waiting.get(key)?.(event);
  });
});

/** The id an event is about, for the events this example waits for. */
function subjectOf(event) {
  return 'lookupRequestId' in event ? event.lookupRequestId : event.eventId;
}

/** Resolves with the first event of one of `types` about `subject`, whether it came already or comes later. */
function eventFor(types, subject, timeoutMs = 60_000) {
  const key = (type) => `${type} ${subject}`;
  const already = types.map((type) => received.get(key(type))).find(Boolean);
  if (already) return Promise.resolve(already);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${types.join(' or ')} for ${subject} within ${timeoutMs / 1000} s`)), timeoutMs);
    for (const type of types) {
      waiting.set(key(type), (event) => {
        clearTimeout(timer);
        resolve(event);
      });
    }
  });
}

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see the comment at the top of this file)`);
  return value;
}

await new Promise((resolve) => receiver.listen(Number(process.env.WEBHOOK_PORT ?? 0), '127.0.0.1', () => resolve(undefined)));
const address = receiver.address();
const port = typeof address === 'object' && address ? address.port : 0;

// The secret is answered once, at creation: keep it where the receiver can read it.
const destination = await pvs.webhookDestinations.create({ url: `http://127.0.0.1:${port}/webhooks`, categories: ['BUSINESS_LOOKUPS', 'VERIFICATIONS'] });
secret = destination.secret;
console.log(`webhook destination ${destination.id} → http://127.0.0.1:${port}/webhooks`);

try {
  const { lookupRequestId } = await pvs.businessLookups.create({ abn });
  console.log(`lookup ${lookupRequestId} for ABN ${abn}: waiting for business-lookup.completed`);
  const completed = await eventFor(['business-lookup.completed', 'business-lookup.failed'], lookupRequestId);
  if (completed.type === 'business-lookup.failed') throw new Error(`the lookup failed: ${completed.failureReason}`);
  console.log(`lookup completed: ${completed.entity.name}, ${completed.individuals.length} individual(s) to verify`);

  const ownership = await pvs.businessLookups.ownership(lookupRequestId);
  for (const owner of ownership.beneficialOwners ?? []) {
    console.log(`  beneficial owner ${owner.name.givenNames} ${owner.name.familyName}: ${owner.ownershipPercent} %`);
  }

  // Bound to the lookup: PVS compares what each person enters with what the registers hold.
  const verification = await pvs.verifications.create({
    mode: 'AUSTRAC_CDD',
    lookupRequestId,
    individuals: completed.individuals.map((person) => ({ idvEntityId: person.idvEntityId })),
  });
  const { individuals } = await pvs.verifications.mintLinks(verification.id);
  console.log(`verification ${verification.id}: ${individuals.length} link(s) to send`);
  for (const person of individuals) console.log(`  ${person.id} ${person.verificationUrl}`);
} finally {
  // A destination nobody listens to would collect failed deliveries: remove it.
  await pvs.webhookDestinations.delete(destination.id);
  receiver.close();
}
