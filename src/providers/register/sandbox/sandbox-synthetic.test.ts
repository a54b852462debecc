// The synthetic businesses every valid number outside CONTRACT §13 resolves to, through the sandbox register:
// deterministic, consistent between the registers; and its people clear of the screening fixtures. That
// their ownership graphs are valid (HIGH, summing to 100 %) is checked through the lookup's analysis:
// modules/lookups/sandbox-ownership.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isValidAbn } from '../../../platform/business-numbers.ts';
import type { RegisterResult } from '../register.ts';
import { createSandboxRegister } from '../sandbox-register.ts';
import { familyNamePool, givenNamePool, middleNamePool } from './sandbox-synthetic.ts';
import { tableCompanies, tablePersons } from './sandbox-table.ts';

function value<T>(result: RegisterResult<T>): T {
  assert.ok(result.ok, `expected an answer, got ${JSON.stringify(result)}`);
  return result.value;
}

/** The ACN with these first eight digits and its check digit. */
function acnOf(first8: string): string {
  const sum = [...first8].reduce((total, digit, i) => total + Number(digit) * (8 - i), 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

describe('sandbox register: synthetic businesses for every other valid number', () => {
  const register = createSandboxRegister();
  const acns = Array.from({ length: 150 }, (_, i) => acnOf(String(10_000_000 + i * 600_613).slice(0, 8)))
    .filter((acn) => !tableCompanies.has(acn));
  /** The valid ABNs ending in these nine digits, by brute force. */
  const abnsEndingIn = (nine: string) => Array.from({ length: 90 }, (_, i) => `${i + 10}${nine}`).filter(isValidAbn);

  it('a company ACN answers the ABN of two check digits and the ACN, and that ABN answers the same company', async () => {
    for (const acn of acns) {
      const record = value(await register.findByAcn(acn));
      assert.equal(record.abn, abnsEndingIn(acn)[0]);
      assert.deepEqual(value(await register.findByAbn(record.abn)), record);
      assert.equal(value(await register.findCompany(acn)).abn, record.abn);
    }
  });

  it('the ABN prefix is the one valid pair of digits, or 10 when 99 is valid too; the ABN 99… is then another business', async () => {
    const both = acns.concat(Array.from({ length: 3000 }, (_, i) => acnOf(String(20_000_000 + i * 7_919).slice(0, 8))))
      .find((acn) => isValidAbn(`10${acn}`) && isValidAbn(`99${acn}`))!;
    assert.ok(both, 'an ACN with two valid prefixes exists among these');
    assert.equal(value(await register.findByAcn(both)).abn, `10${both}`);
    const other = value(await register.findByAbn(`99${both}`));
    assert.equal(other.acn, null);
    assert.ok(['SOLE_TRADER', 'PARTNERSHIP'].includes(other.entityType));
  });

  it('is the same in every instance, and differs from number to number', async () => {
    const acn = acns[7]!;
    const fresh = createSandboxRegister();
    for (const method of ['findByAcn', 'findCompany', 'officers', 'ownership'] as const) {
      assert.deepEqual(await fresh[method](acn), await register[method](acn), method);
    }
    const names = new Set(await Promise.all(acns.slice(0, 20).map(async (a) => value(await register.findCompany(a)).name)));
    assert.ok(names.size >= 15, `20 companies with only ${names.size} names`);
    assert.notDeepEqual(value(await register.officers(acns[1]!)), value(await register.officers(acns[2]!)));
  });

  it('an ABN whose last nine digits are not a company ACN is a sole trader or a partnership, decided by the number', async () => {
    const suffixes = Array.from({ length: 200 }, (_, i) => String(123_456_789 + i * 3_331_777).slice(0, 9));
    const types = new Map<string, number>();
    for (const abn of suffixes.flatMap(abnsEndingIn)) {
      const record = value(await register.findByAbn(abn));
      const type = record.acn === null ? record.entityType : 'COMPANY';
      types.set(type, (types.get(type) ?? 0) + 1);
      if (type === 'COMPANY') assert.equal(record.acn, abn.slice(2));
      else assert.deepEqual(value(await createSandboxRegister().findByAbn(abn)), record);
      if (type === 'SOLE_TRADER') assert.match(record.entityName, /^[A-Z]+, [A-Z ]+$/);
      if (type === 'PARTNERSHIP') assert.match(record.entityName, /^[A-Z ]+ & [A-Z ]+$/);
    }
    assert.deepEqual([...types.keys()].sort(), ['COMPANY', 'PARTNERSHIP', 'SOLE_TRADER'], JSON.stringify([...types]));
    assert.ok(types.get('SOLE_TRADER')! > types.get('PARTNERSHIP')!, 'sole traders are the more common');
  });
});

describe('sandbox register: its people are clear of the screening fixtures', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../../../../fixtures/screening/fixture-list.json', import.meta.url), 'utf8')) as {
    entries: Array<{ kind: string; name: string; aliases: string[] }>;
  };
  const listedWords = new Set(fixtures.entries.filter((e) => e.kind === 'person')
    .flatMap((e) => [e.name, ...e.aliases]).flatMap((n) => n.toUpperCase().split(/[\s-]+/)).filter((w) => w.length > 2));
  const keywords = ['REVIEW', 'FAIL', 'FRAUD', 'UNAVAILABLE'];

  it('no family name of the table or the synthetic pools is a word of a listed person, nor a verification keyword', () => {
    const familyNames = [...[...tablePersons.values()].map((p) => p.familyName), ...familyNamePool];
    const listed = familyNames.filter((n) => listedWords.has(n) || keywords.includes(n));
    assert.deepEqual(listed, []);
    assert.ok(familyNames.length > 40);
  });

  it('no given name is a listed person\'s word either, so no name shares two words with an entry', () => {
    const givenWords = [...[...tablePersons.values()].flatMap((p) => p.givenNames.split(' ')), ...givenNamePool, ...middleNamePool].map((w) => w.toUpperCase());
    assert.deepEqual(givenWords.filter((w) => listedWords.has(w) || keywords.includes(w)), []);
  });
});
