// `pvs destination create` as an operator runs it: real processes, first with no server running (the
// command opens the database itself), then beside a running server (the command runs inside it), and
// the destination it printed receives a signed test event from that server.
// Every process start costs seconds on the embedded database, so the file runs few of them, in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newSite, onlyJsonObject, run, serve, sleep, type Credentials, type Exit, type Pvs, type Site } from '../helpers/cli.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

/** A failed command: a non-zero exit, nothing on stdout, and a message on stderr. */
function assertRefused(result: Pvs & Exit, message: RegExp): void {
  assert.notEqual(result.code, 0, result.describe());
  assert.equal(result.signal, null, result.describe());
  assert.equal(result.stdout, '', result.describe());
  assert.match(result.stderr, message, result.describe());
  assert.doesNotMatch(result.stderr, /whsec_/, 'no secret on a failure');
  assert.doesNotMatch(result.stderr, /\n\s+at /, `a message, not a stack trace\n${result.describe()}`);
}

// ---------------------------------------------------------------------------------------------

interface Destination {
  id: string;
  url: string;
  categories: string[];
  enabled: boolean;
}

describe('pvs destination create', () => {
  let site: Site;
  let receiver: Receiver;
  let partner: Credentials;
  let printed: { id: string; secret: string; url: string; categories: string[] };
  let server: Pvs | undefined;
  let token: string;

  before(async () => {
    site = await newSite();
    receiver = await startReceiver();
  });
  after(async () => {
    if (server?.running) await server.terminate();
    await receiver.close();
  });

  const api = (pathname: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${site.port}${pathname}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'x-partner-id': partner.partnerId, 'content-type': 'application/json', ...init.headers },
    });

  it('with no server running: --json prints one object with the id, the secret and the categories', async () => {
    const made = await run(site, ['partner', 'create', '--name', 'Hook Partner', '--json']);
    assert.equal(made.code, 0, made.describe());
    partner = onlyJsonObject(made.stdout) as unknown as Credentials;
    assert.match(partner.partnerId, /^ptn_/);

    const result = await run(site, ['destination', 'create', '--partner', partner.partnerId, '--url', receiver.url, '--categories', 'PAYMENTS,VERIFICATIONS', '--json']);
    assert.equal(result.code, 0, result.describe());
    const value = onlyJsonObject(result.stdout);
    assert.deepEqual(Object.keys(value).sort(), ['categories', 'id', 'secret', 'url']);
    assert.match(String(value.id), /^whd_[0-9A-Z]{26}$/);
    assert.match(String(value.secret), /^whsec_[A-Za-z0-9_-]{40,}$/);
    assert.equal(value.url, receiver.url);
    assert.deepEqual(value.categories, ['PAYMENTS', 'VERIFICATIONS']);
    printed = value as typeof printed;
    assert.doesNotMatch(result.stderr, /whsec_/, 'the secret goes to stdout only');
  });

  it('an unknown partner exits non-zero with a message', async () => {
    const result = await run(site, ['destination', 'create', '--partner', 'ptn_01JZZZZZZZZZZZZZZZZZZZZZZZ', '--url', 'https://hooks.example.com/pvs', '--json']);
    assertRefused(result, /partner was not found/i);
  });

  it('a URL the policy refuses exits non-zero with a message', async () => {
    const result = await run(site, ['destination', 'create', '--partner', partner.partnerId, '--url', 'http://hooks.example.com/pvs', '--json']);
    assertRefused(result, /url must be https/);
  });

  it('a server started afterwards lists the destination, without its secret', async () => {
    server = await serve(site);
    const tokenResponse = await fetch(`http://127.0.0.1:${site.port}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret }),
    });
    assert.equal(tokenResponse.status, 200);
    token = ((await tokenResponse.json()) as { access_token: string }).access_token;

    const response = await api('/v1/webhook-destinations');
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const { data } = JSON.parse(text) as { data: Destination[] };
    assert.equal(data.length, 1);
    assert.equal(data[0]!.id, printed.id);
    assert.equal(data[0]!.url, receiver.url);
    assert.deepEqual(data[0]!.categories, ['PAYMENTS', 'VERIFICATIONS']);
    assert.equal(data[0]!.enabled, true);
    assert.ok(!text.includes(printed.secret) && !text.includes('whsec_'), 'no secret in the list');
  });

  it('the destination receives a test event signed with the printed secret', async () => {
    receiver.setSecret(printed.secret);
    const response = await api('/v1/webhook-notifications/test', { method: 'POST', body: JSON.stringify({ type: 'verification', variant: 'individual_passed' }) });
    const text = await response.text();
    assert.equal(response.status, 202, text);
    const { data } = JSON.parse(text) as { data: Array<{ id: string; eventId: string; destinationId: string; type: string }> };
    assert.equal(data.length, 1);
    assert.equal(data[0]!.destinationId, printed.id);
    assert.equal(data[0]!.type, 'verification.individual.passed');

    const deadline = Date.now() + 30_000;
    while (receiver.received.length === 0) {
      if (!server!.running) assert.fail(`the server stopped\n${server!.describe()}`);
      if (Date.now() > deadline) assert.fail(`no delivery within 30 s\n${server!.describe()}`);
      await sleep(50);
    }
    const [delivery] = receiver.received;
    assert.deepEqual(delivery!.verified.ok, true, JSON.stringify(delivery!.verified));
    assert.equal(delivery!.headers['x-notification-id'], data[0]!.id);
    assert.equal(delivery!.headers['x-event-id'], data[0]!.eventId);
    assert.equal(delivery!.body.test, true);
    assert.equal(delivery!.body.eventId, data[0]!.eventId);

    // A category the destination did not subscribe to has nowhere to go.
    const lookup = await api('/v1/webhook-notifications/test', { method: 'POST', body: JSON.stringify({ type: 'business-lookup', variant: 'completed' }) });
    const lookupText = await lookup.text();
    assert.equal(lookup.status, 409, lookupText);
    assert.match(lookupText, /BUSINESS_LOOKUPS/);
  });

  it('while the server runs (on the embedded database the command runs inside it): refuses bad categories, creates a second destination', async () => {
    const bogus = await run(site, ['destination', 'create', '--partner', partner.partnerId, '--url', receiver.url, '--categories', 'PAYMENTS,BOGUS']);
    assertRefused(bogus, /Unknown categories BOGUS/);
    const empty = await run(site, ['destination', 'create', '--partner', partner.partnerId, '--url', receiver.url, '--categories', ',']);
    assertRefused(empty, /at least one category/);

    const result = await run(site, ['destination', 'create', '--partner', partner.partnerId, '--url', 'https://hooks.example.com/second', '--categories', 'monitoring', '--json']);
    assert.equal(result.code, 0, result.describe());
    const second = onlyJsonObject(result.stdout);
    assert.match(String(second.secret), /^whsec_/);
    assert.notEqual(second.secret, printed.secret);
    assert.deepEqual(second.categories, ['MONITORING']);

    const { data } = (await (await api('/v1/webhook-destinations')).json()) as { data: Destination[] };
    assert.deepEqual(
      data.map((d) => d.id),
      [printed.id, second.id],
    );
    assert.ok(server!.running);
    assert.deepEqual(await server!.terminate(), { code: 0, signal: null }, server!.describe());
  });
});
