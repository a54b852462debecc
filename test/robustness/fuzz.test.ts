// The fuzz suite: every operation the served documents list (the partner's /openapi.json and the
// operators' /ops/openapi.json), and every hidden route that takes input (read from its Fastify schema), gets requests that are valid-looking but for one place holding a
// hostile value (test/helpers/fuzz/). Every answer must be below 500, an error must be problem+json with
// a code from the closed list (or the format the exceptions below allow), and a 400 VALIDATION_ERROR must
// name the place the case changed. A route documented tomorrow is fuzzed with no change here.
//
// Deterministic by default: CI runs the same cases every time, so a red build is a regression and not a
// lucky draw, and the message's replay command reproduces it exactly. Set FUZZ_SEED to explore new
// cases (a seed per night, say), FUZZ_RUNS for the budget, FUZZ_CASE to replay one case alone.
// test-pass: postgres
import { backend } from '../helpers/database.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RouteOptions } from 'fastify';
import fc from 'fast-check';
import { adminCommands } from '../../src/admin/commands.ts';
import { adminToken } from '../../src/admin/admin-token.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { caseArbitrary, describeCase, type FuzzCase, type FuzzContext } from '../helpers/fuzz/cases.ts';
import { contentTypeOf, judge, parseJson, type Answer, type FormatException } from '../helpers/fuzz/oracle.ts';
import { documentedOperations, hiddenOperations, type FuzzOperation } from '../helpers/fuzz/operations.ts';
import { describeFailure } from '../helpers/fuzz/report.ts';
import { buildRequest, type BuiltRequest } from '../helpers/fuzz/request.ts';
import { plausibleValue, type JsonSchema } from '../helpers/fuzz/schema.ts';

// Run once, in the PostgreSQL pass (where it is quicker): the fuzz suite is slow and its answers do not depend on the database back-end (both are PostgreSQL).
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

const defaultSeed = 20_250_611;
const defaultRuns = 2_400;
/** Every operation gets at least this many cases in a full run, and the coverage test checks it. */
const minimumCasesPerOperation = 20;

function intFromEnv(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  assert.match(raw, /^-?\d+$/, `${name} must be an integer`);
  return Number(raw);
}

const seed = intFromEnv('FUZZ_SEED', defaultSeed)!;
const runs = intFromEnv('FUZZ_RUNS', defaultRuns)!;
const onlyCase = intFromEnv('FUZZ_CASE', undefined);
const file = 'test/robustness/fuzz.test.ts';

/**
 * Routes that answer errors in a format of their own, and why. Everything else answers problem+json.
 * Refusals at the edge (input guard, body parser) are problem+json on these routes too.
 */
const exceptions: FormatException[] = [
  {
    route: 'POST /oauth2/token',
    reason: 'RFC 6749 §5.2: {error, error_description} as application/json, which OAuth client libraries expect (docs/errors.md)',
    check: (answer, json) => {
      const body = json as { error?: unknown; error_description?: unknown } | undefined;
      if (![400, 401].includes(answer.statusCode)) return 'an OAuth error is 400 or 401';
      if (contentTypeOf(answer) !== 'application/json') return 'not application/json';
      if (!['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'].includes(String(body?.error))) return 'error is not an RFC 6749 code';
      return typeof body?.error_description === 'string' ? undefined : 'no error_description';
    },
  },
  {
    route: 'GET /c/:token',
    reason: 'a page people open from a link: a spent or unknown link is an HTML page, not JSON',
    check: (answer) => (contentTypeOf(answer) === 'text/html' ? undefined : 'not text/html'),
  },
  {
    route: 'GET /p/:token',
    reason: 'the payment page people open from a link: a paid, cancelled, replaced or unknown link is an HTML page, not JSON',
    check: (answer) => (contentTypeOf(answer) === 'text/html' ? undefined : 'not text/html'),
  },
  {
    route: 'GET /v/:token',
    reason: 'the verification page people open from a link: a spent, replaced, expired or unknown link is an HTML page, not JSON',
    check: (answer) => (contentTypeOf(answer) === 'text/html' ? undefined : 'not text/html'),
  },
  {
    route: 'POST /sandbox-gateway/v1/tokens',
    reason: "stands in for a payment gateway's own API, and answers in that gateway's format {error: {type, code, …}}",
    check: (answer, json) => {
      const error = (json as { error?: { type?: unknown } } | undefined)?.error;
      if (contentTypeOf(answer) !== 'application/json') return 'not application/json';
      return typeof error?.type === 'string' ? undefined : 'no error.type';
    },
  },
  {
    route: 'GET /web/assets/:name',
    reason: 'static files for the portal and the console: an unknown name is a plain-text 404',
    check: (answer) => (answer.statusCode === 404 && contentTypeOf(answer) === 'text/plain' ? undefined : 'only a text/plain 404 is expected'),
  },
  {
    route: 'GET /hosted/assets/:name',
    reason: 'static files for the hosted pages: an unknown name is a plain-text 404',
    check: (answer) => (answer.statusCode === 404 && contentTypeOf(answer) === 'text/plain' ? undefined : 'only a text/plain 404 is expected'),
  },
  {
    route: 'GET /docs/guides/:name',
    reason: 'a guide is a page for people: an unknown guide is an HTML page that says so',
    check: (answer) => (answer.statusCode === 404 && contentTypeOf(answer) === 'text/html' ? undefined : 'only a text/html 404 is expected'),
  },
  ...['GET /docs/guides/images/:name', 'GET /docs/guides/assets/:name'].map((route) => ({
    route,
    reason: "the guides' images and stylesheet: an unknown name is a plain-text 404",
    check: (answer: Answer) => (answer.statusCode === 404 && contentTypeOf(answer) === 'text/plain' ? undefined : 'only a text/plain 404 is expected'),
  })),
];

/**
 * The API reference's pages (/docs, /docs/ops, their pages and assets) are tested by
 * test/web/docs-pages.test.ts, which sends them unknown pages and names; the guides at /docs/guides
 * are fuzzed here. Signing out of the portal or the console ends the
 * session every other page case uses; web-sessions.test.ts tests it.
 */
const isGuide = (url: string) => url === '/docs/guides' || url.startsWith('/docs/guides/');
const skipRoute = (url: string) => ((url === '/docs' || url.startsWith('/docs/')) && !isGuide(url)) || url === '/portal/logout' || url === '/console/logout';

/** The portal's and the console's pages, which answer in HTML, errors included. */
const isPage = (path: string) => /^\/(portal|console)(\/|$)/.test(path);
const pageException = (route: string): FormatException => ({
  route,
  reason: 'a page of the portal or the console, for people: its errors are pages too',
  check: (answer) => (contentTypeOf(answer) === 'text/html' ? undefined : 'not text/html'),
});

let t: TestContext;
let partner: TestPartner;
/** Whose token the /ops/v1 operations behind the operator guard get. */
let operator: TestOperator;
let operations: FuzzOperation[];
/** A signed-in session of each web area: its cookie and its form token. */
const pages = {} as Record<'portal' | 'console', { cookie: string; csrf: string }>;
let context: FuzzContext;
const routes: RouteOptions[] = [];
/** Routes whose handler ran during the current case (route-level preHandler: past every check). */
const reached = new Set<string>();
/** Pointers each operation's unchanged request is refused with (when the generator could not make it valid). */
const tolerated = new Map<string, Set<string>>();
/** The status each operation's unchanged request answered, for the coverage report. */
const baselines = new Map<string, string>();

interface Tally {
  cases: number;
  ms: number;
  reachedHandler: number;
  statuses: Map<number, number>;
}
const tallies = new Map<string, Tally>();
let runFinished = false;
/** A case got no answer in time: its request may still be running (reading an endless file, say). */
let hung = false;
const caseTimeoutMs = 15_000;

const fixture = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
/** The file each admin import command reads in its valid request (others get the `filePath` hint). */
const adminCommandFiles: Record<string, string> = { 'registers-import-asic': fixture('test/fixtures/asic/company-sample.tsv') };

/**
 * Hidden routes whose schema does not describe their input, and what to send them instead. The admin
 * endpoint takes any object and each command checks its own input, so each command is fuzzed as an
 * operation of its own, with the admin token; the sandbox gateway's body is the card form it reads itself.
 */
function expandHidden(op: FuzzOperation): FuzzOperation[] {
  if (op.route === 'POST /admin/v1/commands/:name') {
    const authorization = `Bearer ${adminToken(t.config.SECRET_KEY)}`;
    return Object.values(adminCommands).map((command) => {
      const schema = command.input as unknown as JsonSchema;
      const file = adminCommandFiles[command.name];
      return {
        ...op,
        key: `${op.key} [${command.name}]`,
        body: { schema, contentType: 'application/json', required: false },
        fixed: { path: { name: command.name }, headers: { authorization }, body: plausibleValue(schema, op.resolve, { ...context.hints, ...(file ? { filePath: file } : {}) }) },
      };
    });
  }
  if (isPage(op.path)) {
    // Signed in, with the session's form token, so that cases get past the session and CSRF checks.
    const session = op.path.startsWith('/portal') ? pages.portal : pages.console;
    return [{ ...op, fixed: { headers: { cookie: session.cookie }, ...(op.method === 'POST' ? { body: { _csrf: session.csrf } } : {}) } }];
  }
  if (op.route === 'POST /sandbox-gateway/v1/tokens') {
    return [{ ...op, fixed: { body: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123', name: 'Fuzz Card' } } }];
  }
  return [op];
}

/** /ops/v1 operations behind the operator guard declare bearer auth too, but take an operator's token, not a partner's. */
function withOperatorAuth(op: FuzzOperation): FuzzOperation {
  if (!op.documented || !op.partnerAuth || !op.path.startsWith('/ops/v1/')) return op;
  return { ...op, partnerAuth: false, fixed: { ...op.fixed, headers: { ...op.fixed.headers, authorization: operator.headers.authorization } } };
}

/** The hosted verification session's calls take the person's session token (`Authorization: Bearer …`). */
let sessionToken: string;
function withSessionAuth(op: FuzzOperation): FuzzOperation {
  if (!op.path.startsWith('/hosted/v1/verification-session/') && op.path !== '/hosted/v1/verification-session') return op;
  // The document's `type` is not the hints' `type`; a short text where a file belongs is sent as a JPEG.
  const body = op.path.endsWith('/document') ? { body: { type: 'PASSPORT', number: 'PA1234567', issuingCountry: 'AU', front: '(file)' } } : {};
  return { ...op, fixed: { ...op.fixed, ...body, headers: { ...op.fixed.headers, authorization: `Bearer ${sessionToken}` } } };
}

async function send(request: BuiltRequest) {
  return t.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload });
}

async function created(url: string, payload: unknown, member = 'id'): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url, headers: partner.headers, payload: payload as object });
  assert.ok(response.statusCode < 300, `${url}: ${response.statusCode} ${response.body}`);
  return String(response.json<Record<string, unknown>>()[member]);
}

before(async () => {
  t = await createTestContext({
    // Rate limits would turn most of the run into 429s; the limiter has tests of its own.
    env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', TOKEN_RATE_LIMIT_PER_MINUTE: '1000000' },
    app: {
      onRoute: (route) => {
        routes.push(route);
        const key = `${[route.method].flat().join(',')} ${route.url}`;
        const mark = async () => void reached.add(key);
        route.preHandler = [...[route.preHandler ?? []].flat(), mark] as RouteOptions['preHandler'];
      },
    },
  });
  partner = await t.f.partner();
  operator = await t.f.operator();
  const portalUser = await t.services.portalUsers.create({ partnerId: partner.partnerId, email: 'fuzz-portal@partner.test' });
  for (const [area, accountId] of [['portal', portalUser.portalUserId], ['console', operator.operatorId]] as const) {
    // The operator has a second factor (every one does): the session has checked it, as a sign-in would.
    const opened = await t.services.webSessions.open(area, accountId, { passwordChangeRequired: false, secondFactorAt: area === 'console' ? t.services.clock.now() : null });
    pages[area] = { cookie: `pvs_${area}=${opened.token}`, csrf: opened.session.csrfToken };
  }

  // A few real resources, so that some cases get past "not found" into the handlers' own rules. DELETE
  // gets resources of its own, and the hosted pages a link nobody replaces, so that the other
  // operations' resources stay live for the whole run.
  const contactId = await created('/v1/contacts', { name: 'Fuzz Contact' });
  const hostedContactId = await created('/v1/contacts', { name: 'Fuzz Hosted Contact' });
  const linkToken = new URL(await created(`/v1/contacts/${hostedContactId}/card-link`, undefined, 'url')).pathname.split('/').pop()!;
  const lookupId = await created('/v1/business-lookups', { abn: '32 111 111 114' }, 'lookupRequestId');
  // A person's verification session, open for the whole run (its individual stays IN_PROGRESS).
  const verificationId = await created('/v1/verifications', { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }] });
  const links = await t.app.inject({ method: 'POST', url: `/v1/verifications/${verificationId}/links`, headers: partner.headers, payload: {} });
  const verificationLink = links.json<{ individuals: Array<{ verificationUrl: string }> }>().individuals[0]!.verificationUrl.split('/v/')[1]!;
  sessionToken = await created('/hosted/v1/verification-sessions', { token: verificationLink }, 'sessionToken');
  const kept: Record<string, string> = {
    '/v1/contacts/{id}': contactId,
    '/v1/webhook-destinations/{id}': await created('/v1/webhook-destinations', { url: 'https://example.com/fuzz-hook' }),
    '/v1/api-clients/{id}': await created('/v1/api-clients', { label: 'fuzz' }),
    '/v1/business-lookups/{id}': lookupId,
    '/c/{token}': linkToken,
    '/hosted/v1/card-links/{token}': linkToken,
    // Files the guides' list names, so that cases reach a rendered page, an image and the stylesheet.
    '/docs/guides/{name}': 'errors',
    '/docs/guides/images/{name}': 'console-queue.png',
    '/docs/guides/assets/{name}': 'guides.css',
  };
  const deleted: Record<string, string> = {
    '/v1/contacts/{id}': await created('/v1/contacts', { name: 'Fuzz Contact To Delete' }),
    '/v1/webhook-destinations/{id}': await created('/v1/webhook-destinations', { url: 'https://example.com/fuzz-hook' }),
    '/v1/api-clients/{id}': await created('/v1/api-clients', { label: 'fuzz' }),
  };
  context = {
    hints: {
      // Optional fields worth sending, and values no schema can describe (check digits, credentials).
      abn: '32 111 111 114',
      email: 'a@example.com',
      url: 'https://example.com/fuzz-hook',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      paymentToken: 'tok_visa',
      name: 'Fuzz Name',
      partnerId: partner.partnerId,
      type: 'payment',
      variant: 'succeeded',
      // The admin import commands read a file: a real list, so that some cases get to the parser.
      filePath: fixture('fixtures/screening/dfat-consolidated-list.xlsx'),
    },
    realIds: (op) => (op.method === 'DELETE' ? deleted : kept),
    partnerHeaders: partner.headers,
  };

  // Both documents: the partner's, and the operators' (open in sandbox), whose operations withOperatorAuth
  // gives the operator's token.
  const documented: FuzzOperation[] = [];
  for (const url of ['/openapi.json', '/ops/openapi.json']) {
    const document = await t.app.inject({ method: 'GET', url });
    assert.equal(document.statusCode, 200, url);
    documented.push(...documentedOperations(document.json()));
  }
  operations = [...documented.map(withOperatorAuth).map(withSessionAuth), ...hiddenOperations(routes, documented, skipRoute).flatMap(expandHidden)].sort((a, b) => a.key.localeCompare(b.key));
  exceptions.push(...operations.filter((op) => isPage(op.path)).map((op) => pageException(op.route)));

  for (const op of operations) {
    const response = await send(buildRequest(op, context));
    const problem = parseJson(response.body) as { code?: string; errors?: Array<{ pointer: string }> } | undefined;
    baselines.set(op.key, `${response.statusCode}${response.statusCode >= 400 ? ` ${problem?.code ?? ''} ${String((problem as { detail?: string } | undefined)?.detail ?? '').slice(0, 80)}` : ''}`);
    tolerated.set(op.key, new Set(response.statusCode === 400 && problem?.code === 'VALIDATION_ERROR' ? problem.errors?.map((e) => e.pointer) : []));
  }
});
after(async () => {
  if (hung) {
    // A request that never ends keeps the process alive after close; the failure is already reported.
    setTimeout(() => process.exit(1), 5_000).unref();
  }
  await t?.close();
});

/** The seed of case `index`: each case is drawn on its own, so one can be replayed without the others. */
const caseSeed = (index: number) => (seed ^ Math.imul(index + 1, 0x9e3779b1)) | 0;

function drawCase(index: number): { op: FuzzOperation; fuzzCase: FuzzCase } {
  const op = operations[index % operations.length]!;
  const [fuzzCase] = fc.sample(caseArbitrary(op, context), { seed: caseSeed(index), numRuns: 1 });
  return { op, fuzzCase: fuzzCase! };
}

describe('fuzzing every operation in /openapi.json and /ops/openapi.json and every hidden route that takes input', { skip: pgliteSkip }, () => {
  it('never answers 5xx, answers errors as problem+json with a listed code, and names the field at fault', { timeout: 600_000 }, async (test) => {
    const indexes = onlyCase === undefined ? Array.from({ length: runs }, (_, i) => i) : [onlyCase];
    test.diagnostic(`seed ${seed}, ${indexes.length} cases over ${operations.length} operations; replay with FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm test -- ${file}`);
    const failures = new Map<string, { first: string; operations: Map<string, number> }>();
    const slowest: Array<{ ms: number; what: string }> = [];
    const started = Date.now();
    for (const index of indexes) {
      const { op, fuzzCase } = drawCase(index);
      const request = buildRequest(op, context, fuzzCase);
      reached.clear();
      let answer: { statusCode: number; headers: Record<string, unknown>; body: string };
      const sent = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, caseTimeoutMs, 'late')));
        const result = await Promise.race([send(request), late]);
        answer = result === 'late' ? { statusCode: 0, headers: {}, body: '' } : result;
      } catch (error) {
        answer = { statusCode: 599, headers: {}, body: `app.inject threw: ${(error as Error).stack}` };
      } finally {
        clearTimeout(timer);
      }
      if (answer.statusCode === 0) {
        // The request is still running and may never end: the rest of the run would measure a wedged
        // service, so it stops here. See after() for the process.
        hung = true;
        const first = describeFailure({ seed, index, file, op, fuzzCase, request }, { statusCode: 0, headers: {}, body: '(none)' }, `gave no answer within ${caseTimeoutMs / 1000} s`);
        failures.set('hung', { first, operations: new Map([[op.key, 1]]) });
        break;
      }
      slowest.push({ ms: Date.now() - sent, what: `case ${index}: ${op.key}: ${describeCase(fuzzCase).slice(0, 100)}` });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
      const tally = tallies.get(op.key) ?? { cases: 0, ms: 0, reachedHandler: 0, statuses: new Map() };
      tally.cases++;
      tally.ms += Date.now() - sent;
      if (reached.size > 0) tally.reachedHandler++;
      tally.statuses.set(answer.statusCode, (tally.statuses.get(answer.statusCode) ?? 0) + 1);
      tallies.set(op.key, tally);

      const why = judge({ route: op.route, location: fuzzCase.location, answer, exceptions, tolerated: tolerated.get(op.key) ?? new Set() });
      if (why === undefined) continue;
      // One report per kind of failure, with the operations it was seen on: one bug found 40 times is one bug.
      const detail = String((parseJson(answer.body) as { detail?: unknown } | undefined)?.detail ?? answer.body).slice(0, 20);
      const kind = `${answer.statusCode}|${why}|${detail}`.replace(/\[.*?\]|"[^"]*"|\d+/g, '…');
      const group = failures.get(kind) ?? { first: describeFailure({ seed, index, file, op, fuzzCase, request }, answer, why), operations: new Map<string, number>() };
      group.operations.set(op.key, (group.operations.get(op.key) ?? 0) + 1);
      failures.set(kind, group);
    }
    runFinished = onlyCase === undefined && !hung;
    test.diagnostic(`${indexes.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s; slowest: ${slowest.map((s) => `${s.ms} ms ${s.what}`).join('; ')}`);
    if (failures.size > 0) {
      const reports = [...failures.values()].map(({ first, operations: seenOn }) => {
        const where = [...seenOn].map(([key, n]) => `${key} (${n})`).join(', ');
        return `${first}\n  seen on:  ${where}`;
      });
      assert.fail(`${failures.size} kind(s) of failure in ${indexes.length} cases (seed ${seed}):\n\n${reports.join('\n\n')}\n\nWhole run: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm test -- ${file}`);
    }
  });

  it('fuzzed every documented operation and every hidden route that takes input, and reached each handler', { skip: onlyCase !== undefined && 'FUZZ_CASE replays one case' }, (test) => {
    assert.ok(runFinished, 'the fuzz run did not finish');
    const routeKeys = new Set(operations.map((o) => o.route));
    // Everything Fastify registered is fuzzed, documented or not, but HEAD twins and the docs' assets.
    for (const route of routes) {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD' || skipRoute(route.url)) continue;
        assert.ok(routeKeys.has(`${method} ${route.url}`), `${method} ${route.url} is registered but not fuzzed`);
      }
    }
    assert.ok(operations.some((o) => o.documented && o.key === 'POST /v1/contacts'), 'the documented operations were not read');
    // The operators' operations come from their own document, with the operator's token.
    for (const key of ['GET /ops/v1/me', 'POST /ops/v1/token', 'PUT /ops/v1/settings/{name}']) assert.ok(operations.some((o) => o.documented && o.key === key), `${key} was not read from /ops/openapi.json`);
    assert.ok(operations.some((o) => !o.documented && o.route === 'GET /docs/guides/:name'), 'the guides were not fuzzed');
    assert.ok(operations.some((o) => !o.documented && o.route === 'GET /c/:token'), 'the hidden routes were not read');

    const expected = Math.min(minimumCasesPerOperation, Math.floor(runs / operations.length));
    const lines: string[] = [];
    const short: string[] = [];
    const unreached: string[] = [];
    for (const op of operations) {
      const tally = tallies.get(op.key) ?? { cases: 0, ms: 0, reachedHandler: 0, statuses: new Map<number, number>() };
      const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
      lines.push(`${op.key.padEnd(70)} ${String(tally.cases).padStart(4)} cases (${(tally.ms / 1000).toFixed(1)} s), ${String(tally.reachedHandler).padStart(4)} reached the handler   ${statuses}   (unchanged request: ${baselines.get(op.key)})`);
      if (tally.cases < expected) short.push(`${op.key}: ${tally.cases}`);
      if (tally.cases >= 10 && tally.reachedHandler === 0) unreached.push(op.key);
    }
    test.diagnostic(`cases per operation (at least ${expected} each):\n${lines.join('\n')}`);
    assert.deepEqual(short, [], `operations fuzzed fewer than ${expected} times`);
    // A baseline the generator cannot make valid never gets past validation: the fuzzing of that
    // operation's handler is then blind. Give the schema `examples`, or a hint above.
    assert.deepEqual(unreached, [], 'operations whose handler no case reached');
  });

  it('is healthy after the run: /health, /ready and an ordinary request', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode, 200);
    const response = await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: partner.headers, payload: { name: 'After the fuzz' } });
    assert.equal(response.statusCode, 201, response.body);
    const contact = response.json<{ id: string }>();
    const read = await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}`, headers: partner.headers });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json<{ name: string }>().name, 'After the fuzz');
  });
});
