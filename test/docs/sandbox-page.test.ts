// docs/sandbox.md, the sandbox's test values on one page, held to the code's own tables: the register's
// numbers and people, the identity provider's last names, the gateway's test cards, the fixture screening
// list, the webhook samples and the sandbox's timings. Each value the page names is read back from the
// code that gives it, and each table of the code is read off the page, so that neither can change alone.
// No database, no server: the page is read as text and the sandbox's pure parts answer.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { analyseOwnership } from '../../src/modules/lookups/ownership.ts';
import { prnLength, readPrn } from '../../src/modules/payments/prn.ts';
import { registerDateOfBirthCheck } from '../../src/modules/verifications/outcomes.ts';
import { eventCatalogue } from '../../src/modules/webhooks/events/index.ts';
import { findTestDefinition, testVariants } from '../../src/modules/webhooks/notifications.service.ts';
import { checkDestinationUrl } from '../../src/modules/webhooks/url-policy.ts';
import { maxImageBytes } from '../../src/platform/images.ts';
import { guidePath } from '../../src/platform/http/guide-links.ts';
import { brandOf, chargeDeclines, checkCard, testCards } from '../../src/providers/gateway/sandbox-cards.ts';
import { tokenLifetimeMinutes } from '../../src/providers/gateway/sandbox-gateway.ts';
import { registerSandboxGatewayRoutes } from '../../src/providers/gateway/sandbox-gateway.routes.ts';
import { behaviourOf, type SandboxBehaviour } from '../../src/providers/identity/sandbox-identity-outcomes.ts';
import { sandboxOutageMs } from '../../src/providers/identity/sandbox-identity.ts';
import { createSandboxRegister } from '../../src/providers/register/sandbox-register.ts';
import { personDetailsOf, syntheticBusiness } from '../../src/providers/register/sandbox/sandbox-synthetic.ts';
import {
  abnNotOnRegister,
  abnRegisterUnavailable,
  abnTransientlyUnavailable,
  tableBusinesses,
  tableCompaniesByAbn,
  tablePersons,
  transientFailures,
} from '../../src/providers/register/sandbox/sandbox-table.ts';
import { renderGuide } from '../../src/web/docs/render-guide.ts';

// Every assert.ok here carries its message: without one, a failing assert.ok reads the test's source to
// describe the expression, and under tsx that has been seen to spin for minutes instead of failing.
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const page = read('docs/sandbox.md');
/** The page without its code blocks: what a reader sees as prose and tables. */
const prose = page.replace(/```[\s\S]*?```/g, '');

const sandbox = loadConfig({ ENVIRONMENT: 'sandbox', SECRET_KEY: 'sandbox-page-test-'.padEnd(40, 'x') });

/** The text under a heading (any level), up to the next heading of the same level or above. */
function section(title: string): string {
  const lines = prose.split('\n');
  const start = lines.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '') === title);
  assert.ok(start >= 0, `docs/sandbox.md has no section "${title}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

interface Table {
  header: string[];
  rows: string[][];
}

/** The markdown tables of some text: the header's cells and each row's, trimmed. */
function tablesOf(text: string): Table[] {
  const tables: Table[] = [];
  const lines = text.split('\n');
  const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !/^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1]!)) continue;
    const table: Table = { header: cells(lines[i]!), rows: [] };
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) table.rows.push(cells(lines[j]!));
    tables.push(table);
    i = j;
  }
  return tables;
}

/** The one table of a section whose first column is headed so; it must be there and have rows. */
function tableOf(title: string, firstColumn: string): Table {
  const found = tablesOf(section(title)).filter((t) => t.header[0] === firstColumn);
  assert.equal(found.length, 1, `section "${title}" has one table whose first column is "${firstColumn}" (found ${found.length})`);
  assert.ok(found[0]!.rows.length > 0, `the "${firstColumn}" table of "${title}" has rows`);
  return found[0]!;
}

/** The tables of a section whose first column is headed so, as one list of rows. */
function rowsOf(title: string, firstColumn: string): string[][] {
  const rows = tablesOf(section(title))
    .filter((t) => t.header[0] === firstColumn)
    .flatMap((t) => t.rows);
  assert.ok(rows.length > 0, `section "${title}" has a table whose first column is "${firstColumn}"`);
  return rows;
}

/** What a cell names in `backticks`. */
const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const digits = (text: string) => text.replace(/[^0-9]/g, '');
const numberWords = ['no', 'one', 'two', 'three', 'four', 'five'];
const ordinals = ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth'];

interface FixtureEntry {
  id: string;
  kind: 'person' | 'business';
  name: string;
  aliases: string[];
  datesOfBirth: string[];
  countries: string[];
  categories: string[];
}
const fixtureList = JSON.parse(read('fixtures/screening/fixture-list.json')) as { entries: FixtureEntry[] };

describe('docs/sandbox.md: the business registers', () => {
  // Read in each test, so that a page without the table fails a test rather than the file.
  const registerRows = () => rowsOf('Business registers', 'ABN');
  const abnRows = () => new Map(registerRows().map((row) => [digits(row[0]!), row]));

  it('lists every number of the sandbox register, and no other', () => {
    const rows = registerRows();
    const byAbn = abnRows();
    const expected = [...tableCompaniesByAbn.keys(), ...tableBusinesses.keys(), abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable];
    assert.equal(rows.length, byAbn.size, 'an ABN is listed twice');
    assert.deepEqual([...byAbn.keys()].sort(), [...new Set(expected)].sort());
  });

  it('gives each company its ACN, its name and the completeness a lookup finds for it', async () => {
    const byAbn = abnRows();
    const register = createSandboxRegister();
    for (const [abn, company] of tableCompaniesByAbn) {
      const row = byAbn.get(abn)!;
      assert.equal(digits(row[1]!), company.acn, `${abn}: ACN`);
      assert.equal(row[2], company.name, `${abn}: name`);
      const report = await register.ownership(company.acn);
      const { completeness } = !report.ok
        ? analyseOwnership({ source: 'UNAVAILABLE' })
        : report.value.graph === null
          ? analyseOwnership({ source: 'AVAILABLE', graph: null })
          : analyseOwnership({ source: 'AVAILABLE', graph: report.value.graph });
      const named = quoted(row[3]!).filter((word) => ['HIGH', 'PARTIAL', 'UNKNOWN'].includes(word));
      assert.deepEqual(named, [completeness], `${abn} (${company.name}): the page says ${named.join(', ') || 'nothing'}, a lookup finds ${completeness}`);
      if (company.abr.status === 'CANCELLED') assert.match(row[3]!, /deregistered, cancelled ABN/, `${abn}`);
    }
  });

  it('gives each business without an ACN its name and kind', () => {
    const byAbn = abnRows();
    const kinds: Record<string, RegExp> = { SOLE_TRADER: /sole trader/, TRUST: /\btrust\b/, PARTNERSHIP: /partnership/ };
    for (const [abn, business] of tableBusinesses) {
      const row = byAbn.get(abn)!;
      assert.equal(row[1], '—', `${abn}: no ACN`);
      assert.equal(row[2], business.entityName, `${abn}: name`);
      assert.ok(kinds[business.entityType], `${abn}: a kind the test knows (${business.entityType})`);
      assert.match(row[3]!, kinds[business.entityType]!, `${abn}: ${business.entityType}`);
    }
  });

  it('says what the special numbers do', async () => {
    const byAbn = abnRows();
    assert.match(byAbn.get(abnNotOnRegister)![3]!, /`FAILED` `NOT_FOUND`/);
    assert.match(byAbn.get(abnRegisterUnavailable)![3]!, /`FAILED` `REGISTER_UNAVAILABLE`/);
    const transient = byAbn.get(abnTransientlyUnavailable)!;
    assert.match(transient[3]!, new RegExp(`the first ${numberWords[transientFailures]} reads`));
    // And what it is once it answers.
    assert.match(transient[2]!, new RegExp(`synthetic ${syntheticBusiness(abnTransientlyUnavailable).entityType.toLowerCase().replace('_', ' ')}`));
    const register = createSandboxRegister();
    for (let i = 0; i < transientFailures; i++) assert.equal((await register.findByAbn(abnTransientlyUnavailable)).ok, false);
    assert.equal((await register.findByAbn(abnTransientlyUnavailable)).ok, true);
    assert.match(prose, /\*\*Any other valid number\*\* gives a made-up business derived from the number, the same every time/);
  });

  it('gives every person of the register table the date of birth the register holds', () => {
    const people = tableOf('The people on the registers', 'person').rows;
    assert.equal(people.length, tablePersons.size, 'one row a person');
    for (const person of tablePersons.values()) {
      const name = `${person.givenNames} ${person.familyName}`;
      const row = people.find((r) => r[0] === name);
      assert.ok(row, `${name} is listed`);
      assert.equal(row[2], personDetailsOf(person).dateOfBirth, `${name}: date of birth`);
      // "none is on the sandbox screening list"
      assert.ok(!fixtureList.entries.some((e) => e.kind === 'person' && e.name.toLowerCase() === name.toLowerCase()), `${name} is not on the fixture list`);
    }
  });
});

describe('docs/sandbox.md: identity verification', () => {
  /** What each of the provider's behaviours must say it does; a new behaviour fails tsc here. */
  const outcomes: Record<Exclude<SandboxBehaviour, 'pass'>, RegExp> = {
    review: /^`MANUAL_REVIEW`/,
    fail: new RegExp(`the ${ordinals[sandbox.VERIFICATION_MAX_ATTEMPTS]} failure is \`LOCKED_OUT\``),
    fraud: /^`FAILED` at once/,
    unavailable: /down for this person for an hour from their first check.*`UPSTREAM_UNAVAILABLE`/,
  };

  it('names every last name the provider acts on, with what it does', () => {
    const rows = tableOf('Identity verification', 'last name').rows;
    const seen = new Set<string>();
    for (const row of rows.filter((r) => r[0]!.startsWith('`'))) {
      const [name] = quoted(row[0]!);
      const behaviour = behaviourOf(name!);
      assert.notEqual(behaviour, 'pass', `${name} is not a name the sandbox acts on`);
      assert.match(row[1]!, outcomes[behaviour as keyof typeof outcomes], `${name}: ${row[1]}`);
      seen.add(behaviour);
    }
    assert.deepEqual([...seen].sort(), Object.keys(outcomes).sort());
    // The names behaviourOf compares with, read from its source: a new one must reach the page at run time
    // too, not only when tsc meets the Record above.
    const compared = [...read('src/providers/identity/sandbox-identity-outcomes.ts').matchAll(/name === '([a-z]+)'/g)].map((m) => m[1]!);
    assert.ok(compared.length > 0, 'behaviourOf compares the name with literals');
    assert.deepEqual([...new Set(compared)].sort(), Object.keys(outcomes).sort(), 'every last name behaviourOf knows');
    assert.equal(sandboxOutageMs, 60 * 60_000, '"for an hour"');
    // "in any case", and anything else passes.
    assert.match(section('Identity verification'), /in any\s+case/);
    assert.equal(behaviourOf(' REVIEW '), 'review');
    assert.equal(behaviourOf('Kingsley'), 'pass');
    assert.deepEqual(rows.find((r) => r[0] === 'anything else')?.[1], '`PASSED`');
  });

  it('names the screening-list person as the fixture list holds them, whom the provider itself passes', () => {
    const [row] = tableOf('Identity verification', 'to see').rows.filter((r) => r[0] === 'a screening match');
    assert.ok(row, 'a row for a screening match');
    const [given, last, born] = quoted(row[1]!);
    const entry = fixtureList.entries.find((e) => e.name.toLowerCase() === `${given} ${last}`.toLowerCase());
    assert.ok(entry, `${given} ${last} is on the fixture list`);
    assert.ok(entry.datesOfBirth.includes(born!), `born ${born}`);
    assert.equal(behaviourOf(last!), 'pass', 'the match comes from screening, not from the last name');
    assert.match(row[1]!, /`AML_POSSIBLE_MATCH`/);
  });

  it("states the register's date-of-birth rule and the images it takes", () => {
    const identity = section('Identity verification');
    assert.equal(registerDateOfBirthCheck('1970-01-01', '1971-02-02')?.code, 'REGISTER_DATE_OF_BIRTH_DIFFERS');
    assert.match(identity, /`REGISTER_DATE_OF_BIRTH_DIFFERS`/);
    assert.equal(maxImageBytes, 10 * 1024 * 1024);
    assert.match(identity, /any JPEG or PNG, up to 10 MiB each/);
  });
});

describe('docs/sandbox.md: cards', () => {
  const cardRows = () => tableOf('Cards', 'card').rows;
  const cardsByNumber = () => new Map(cardRows().map((row) => [digits(quoted(row[0]!).join(' ')), row]));
  const brands: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

  it('lists every test card of the sandbox gateway, and no other', () => {
    const rows = cardRows();
    const byNumber = cardsByNumber();
    assert.equal(rows.length, byNumber.size, 'a card is listed twice');
    assert.deepEqual([...byNumber.keys()].sort(), testCards.map((c) => c.number).sort());
  });

  it('gives each card its brand and what it does when saved and when paying', () => {
    const byNumber = cardsByNumber();
    for (const card of testCards) {
      const row = byNumber.get(card.number)!;
      assert.equal(row[1], brands[brandOf(card.number)], `${card.number}: brand`);
      const decline = chargeDeclines[card.behaviour];
      for (const column of [row[2]!, row[3]!]) {
        if (!decline) {
          assert.doesNotMatch(column, /declin/, `${card.number} succeeds: ${column}`);
          continue;
        }
        assert.ok(column.includes(`\`${decline.declineCode}\``), `${card.number}: ${decline.declineCode} in "${column}"`);
        if (decline.merchantAdviceCode) assert.ok(column.includes(`merchant advice code \`${decline.merchantAdviceCode}\``), `${card.number}: code ${decline.merchantAdviceCode}`);
      }
      if (card.behaviour === 'declines_on_save') assert.match(row[2]!, /^declined when saving/);
    }
  });

  it("states the gateway's rules for expiry, security code and other numbers", () => {
    const today = new Date();
    const expYear = today.getUTCFullYear() + 2;
    const refused = (card: { number: string; cvc: string }) => {
      const result = checkCard({ ...card, expMonth: 12, expYear }, today);
      assert.equal(result.ok, false);
      return result.ok ? '' : result.declineCode;
    };
    const cards = section('Cards');
    assert.match(cards, new RegExp(`declined with \`${refused({ number: '4111 1111 1111 1111', cvc: '123' })}\``));
    assert.match(cards, new RegExp(`refused as \`${refused({ number: '4242 4242 4242 4241', cvc: '123' })}\``));
    assert.equal(refused({ number: '3782 822463 10005', cvc: '123' }), 'invalid_cvc');
    assert.ok(checkCard({ number: '3782 822463 10005', cvc: '1234', expMonth: 12, expYear }, today).ok, 'American Express takes 4 digits');
    assert.match(cards, /3 digits, 4 for American\s+Express/);
  });

  it('names the tokenisation endpoint the sandbox serves, and how long its tokens last', () => {
    const routes: string[] = [];
    const app = { post: (url: string) => routes.push(`POST ${url}`) };
    registerSandboxGatewayRoutes(app as unknown as Parameters<typeof registerSandboxGatewayRoutes>[0], { gateway: {} as never });
    assert.equal(routes.length, 1);
    assert.ok(prose.includes(`\`${routes[0]}\``), `the page names ${routes[0]}`);
    assert.match(section('Cards'), new RegExp(`expire\\s+after ${tokenLifetimeMinutes} minutes`));
  });

  it('says that no PRN decides an outcome, and what a PRN is', () => {
    assert.match(prose, new RegExp(`\\*\\*No PRN decides an outcome\\*\\*: an ATO payment's \`prn\` is any ${prnLength.min} to ${prnLength.max} digits, not all zeros`));
    const [example] = quoted(/as printed on notices: (`[^`]+`)/.exec(prose)?.[1] ?? '');
    assert.ok(example && readPrn(example).ok, `the example PRN ${example} is accepted`);
  });
});

describe('docs/sandbox.md: timings', () => {
  const row = (what: RegExp) => {
    const found = tableOf('Timings', 'what').rows.find((r) => what.test(r[0]!));
    assert.ok(found, `a row for ${what}`);
    return found[1]!;
  };

  it("gives the sandbox's own timings as the code has them", () => {
    assert.match(row(/billing run/), new RegExp(`^${sandbox.BILLING_RUN_WINDOW_SECONDS} seconds after its first charge`));
    assert.match(read('docs/billing.md'), new RegExp(`\\*\\*${sandbox.BILLING_RUN_WINDOW_SECONDS} seconds in the sandbox\\*\\*`));
    assert.match(row(/gateway token/), new RegExp(`single use, expires after ${tokenLifetimeMinutes} minutes`));
    assert.equal(sandboxOutageMs, 3_600_000);
    assert.match(row(/`Unavailable`/), /^one hour from the person's first check/);
    assert.match(row(/`LOCKED_OUT`/), new RegExp(`^${sandbox.VERIFICATION_MAX_ATTEMPTS} `));
    assert.match(row(new RegExp(abnTransientlyUnavailable.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4'))), new RegExp(`^the first ${numberWords[transientFailures]} reads`));
  });
});

describe('docs/sandbox.md: screening and monitoring', () => {
  it('names entries as the fixture list holds them: kind, date of birth, country, categories, aliases', () => {
    const rows = tableOf('Screening and monitoring', 'name').rows;
    for (const row of rows) {
      const [name, ...aliases] = quoted(row[0]!);
      const entry = fixtureList.entries.find((e) => e.name === name);
      assert.ok(entry, `${name} is on fixtures/screening/fixture-list.json`);
      assert.equal(row[1], entry.kind, `${name}: kind`);
      assert.equal(row[2], entry.datesOfBirth.join(', ') || '—', `${name}: born`);
      assert.equal(row[3], entry.countries.join(', '), `${name}: country`);
      assert.deepEqual(quoted(row[4]!).sort(), [...entry.categories].sort(), `${name}: categories`);
      for (const alias of aliases) assert.ok(entry.aliases.includes(alias), `${name}: alias ${alias}`);
    }
    // A person and a business, and an example of every category the list holds.
    const entries = rows.map((row) => fixtureList.entries.find((e) => e.name === quoted(row[0]!)[0])!);
    assert.deepEqual([...new Set(entries.map((e) => e.kind))].sort(), ['business', 'person']);
    assert.deepEqual([...new Set(entries.flatMap((e) => e.categories))].sort(), [...new Set(fixtureList.entries.flatMap((e) => e.categories))].sort());
  });

  it('says how large the fixture list is and what the sandbox names it', () => {
    assert.match(section('Screening and monitoring'), new RegExp(`the fixture list of ${fixtureList.entries.length} fictional people and businesses`));
    // The first start loads it as that list (src/cli/serve.ts).
    assert.match(read('src/cli/serve.ts'), /list: 'sandbox-fixture'/);
    assert.match(section('Screening and monitoring'), /list `sandbox-fixture`, version 1/);
  });

  it("uses an entry of the list for an alert at once, and the tour's list for an alert from a new version", () => {
    const steps = tableOf('Screening and monitoring', 'to see').rows;
    const atOnce = steps.find((r) => r[0] === 'an alert at once');
    assert.ok(atOnce, 'a row for an alert at once');
    for (const name of quoted(atOnce[1]!).filter((n) => !n.includes('.'))) assert.ok(fixtureList.entries.some((e) => e.name === name), `${name} is on the fixture list`);

    const fromVersion = steps.find((r) => r[0] === 'an alert from a new list version');
    assert.ok(fromVersion, 'a row for an alert from a new list version');
    const file = /\[`(examples\/[^`]+)`\]/.exec(fromVersion[1]!)?.[1];
    assert.ok(file && existsSync(path.join(root, file)), `${file} exists`);
    const [header, ...lines] = read(file).trim().split('\n');
    const listed = quoted(fromVersion[1]!).find((n) => / Pty Ltd$/.test(n))!;
    assert.ok(lines.some((line) => line.split(',')[2] === listed), `${file} lists ${listed}`);
    // New in that version: on the fixture list it would have opened its alert already.
    assert.ok(!fixtureList.entries.some((e) => e.name === listed || e.aliases.includes(listed)), `${listed} is not on the fixture list`);
    assert.ok(fromVersion[1]!.includes(`npx pvs screening import --format csv --list watch ${file}`), `the command imports ${file}`);
    const own = steps.find((r) => r[0] === 'your own entries');
    assert.ok(own?.[1]?.includes(`\`${header}\``), 'the simple CSV header is the one the example list has');
  });
});

describe('docs/sandbox.md: trust deeds and the demo partner', () => {
  it("names the tour's sample deed as the examples describe it, and what the sandbox uses to read it", () => {
    const [row] = tableOf('Trust deeds', 'file').rows;
    const file = /\[`(examples\/deed\.pdf)`\]/.exec(row![0]!)?.[1];
    assert.ok(file, 'the table names examples/deed.pdf');
    assert.equal(readFileSync(path.join(root, file)).subarray(0, 5).toString('latin1'), '%PDF-');
    const trust = /the fictional ([A-Z][A-Za-z ]+ Trust)/.exec(row![1]!)?.[1];
    assert.ok(trust && read('examples/README.md').includes(trust), `examples/README.md names ${trust}`);
    assert.equal(sandbox.STORAGE, 'local');
    assert.equal(sandbox.DEED_EXTRACTOR, 'rules');
    assert.match(row![2]!, /`STORAGE=local`/);
    assert.match(row![2]!, /the same `rules` extractor/);
  });

  it("says where the demo partner's credentials are kept, and that it is monitoring-eligible", () => {
    const serve = read('src/cli/serve.ts');
    assert.match(serve, /path\.join\(config\.DATA_DIR, 'demo-partner\.json'\)/);
    assert.match(serve, /services\.partners\.create\(\{ name: 'Demo Partner', monitoring: true \}\)/);
    assert.equal(sandbox.DATA_DIR, './.data');
    const rows = tableOf('The demo partner', 'what').rows;
    assert.match(rows.find((r) => r[0] === 'its credentials')?.[1] ?? '', /^`\.data\/demo-partner\.json`/);
    assert.match(rows.find((r) => r[0] === 'monitoring')?.[1] ?? '', /^the demo partner is monitoring-eligible/);
  });
});

describe('docs/sandbox.md: webhooks', () => {
  it('lists every test event prefix and variant the test route sends, with its category', () => {
    const rows = tableOf('Webhooks', '`type`').rows;
    const onPage = new Map(rows.map((row) => [quoted(row[0]!)[0]!, { variants: quoted(row[1]!), category: quoted(row[2]!)[0] }]));
    const prefixes = [...new Set(eventCatalogue.map((d) => d.type.split('.')[0]!))];
    assert.deepEqual([...onPage.keys()].sort(), [...prefixes].sort());
    for (const prefix of prefixes) {
      const sendable = testVariants(prefix).filter((variant) => findTestDefinition(prefix, variant)?.example);
      assert.deepEqual(onPage.get(prefix)!.variants, sendable, `${prefix}: its variants, in the catalogue's order`);
      assert.equal(onPage.get(prefix)!.category, findTestDefinition(prefix, sendable[0]!)!.category, `${prefix}: category`);
    }
  });

  it('names destinations the sandbox accepts and production refuses', () => {
    const [, destination] = tableOf('Webhooks', 'what').rows.find((r) => r[0] === 'a destination of your own') ?? [];
    assert.ok(destination, 'a row for a destination of your own');
    for (const url of ['http://localhost:4000/webhooks', 'http://127.0.0.1/', 'http://127.5.6.7/', 'http://[::1]/']) {
      assert.equal(checkDestinationUrl(url, 'sandbox').ok, true, `sandbox takes ${url}`);
      assert.equal(checkDestinationUrl(url, 'production').ok, false, `production refuses ${url}`);
    }
    for (const host of ['`localhost`', '`127.0.0.1`', '`127.x.x.x`', '`[::1]`', '`http://localhost:4000/webhooks`']) assert.ok(destination.includes(host), host);
    assert.equal(checkDestinationUrl('http://192.168.1.10/', 'sandbox').ok, false, 'only loopback');
  });

  it('gives a known signature that verifies', () => {
    const [, known] = tableOf('Webhooks', 'what').rows.find((r) => r[0] === 'a known signature') ?? [];
    const [secret, timestamp, body, signature] = quoted(known ?? '');
    assert.ok(secret && timestamp && body && signature, 'secret, timestamp, body and signature');
    assert.equal(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'), signature);
  });
});

describe('docs/sandbox.md: its links', () => {
  const guides = new Set(readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)));
  const images = new Set(readdirSync(path.join(root, 'docs/images')));
  const anchorsOf = new Map<string, string[]>();
  const anchors = (name: string) => {
    if (!anchorsOf.has(name)) anchorsOf.set(name, renderGuide(read(`docs/${name}.md`), { guides, images }).anchors);
    return anchorsOf.get(name)!;
  };

  it('leads every link to a file on GitHub, and to a guide page with that anchor when served', () => {
    let anchored = 0;
    const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(links.length >= 30, `only ${links.length} links`);
    for (const href of links) {
      const [target, anchor] = href.split('#') as [string, string | undefined];
      if (target === '') {
        assert.ok(anchors('sandbox').includes(anchor!), `#${anchor} is a heading of the page`);
        anchored++;
        continue;
      }
      const file = path.normalize(path.join('docs', target));
      assert.ok(existsSync(path.join(root, file)), `${href}: ${file} exists`);
      const guide = /^docs\/([^/]+)\.md$/.exec(file.split(path.sep).join('/'))?.[1];
      if (guide === undefined) continue;
      // What the served page links to (src/web/docs/render-guide.ts): the guide's own page.
      const served = renderGuide(`[x](${href})`, { guides, images }).html;
      assert.ok(served.includes(`href="${guidePath(guide, anchor ? `#${anchor}` : '')}"`), `${href} is served as a link to its guide: ${served}`);
      if (anchor !== undefined) {
        assert.ok(anchors(guide).includes(anchor), `${href}: docs/${guide}.md has a heading "${anchor}"`);
        anchored++;
      }
    }
    assert.ok(anchored >= 20, `only ${anchored} links with an anchor`);
  });
});
