// The independent deed corpus (test/helpers/deed-corpus-independent): that it is what its header says. A
// seed gives the same case; every truth is printable in SPEC's payload (valid ACN/ABN check digits, SPEC's
// roles, no date of birth); what the truth names is really in the deed; the halves are disjoint and big
// enough; scanned cases carry no text layer. It does not run the extractor: scoring is not its business.
// test-pass: pglite
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  corpusSeeds,
  createIndependentCase,
  independentCorpus,
  isValidAbn,
  isValidAcn,
  layouts,
  type IndependentCase,
  type TruthParty,
} from './helpers/deed-corpus-independent/index.ts';
import { backend } from './helpers/database.ts';
import { pdfText } from './helpers/pdf-text.ts';

// Rendering and scanning the corpus does not touch a database: one CI pass is enough.
const skip = backend === 'postgres' && 'the corpus does not depend on the database back-end: PGlite pass only';

const development = independentCorpus({ half: 'development' });
const heldOut = independentCorpus({ half: 'held-out' });
const everyCase = [...development, ...heldOut];

const roles = new Set(['TRUSTEE', 'APPOINTOR', 'BENEFICIARY', 'SETTLOR', 'PROTECTOR_GUARDIAN', 'UBO', 'OTHER_CONTROLLER', 'OTHER']);
const trustTypes = new Set(['DISCRETIONARY', 'UNIT', 'HYBRID', 'FIXED', 'BARE', 'SMSF', 'OTHER']);

/** Text as a reader searches it: one space for any run of spaces, a hyphen broken at a line end rejoined, no case. */
function searchable(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').replace(/- /g, '-').toLowerCase();
}

/** The ways a deed may print a person: John Peter Smith, SMITH, John Peter. */
function printedForms(party: TruthParty): string[] {
  if (party.partyKind === 'BUSINESS') return [party.businessName!];
  return [`${party.firstName} ${party.lastName}`, `${party.lastName}, ${party.firstName}`];
}

/** Whether some printing of the party is followed, within `reach` characters, by `after`: its address is printed with it. */
function printedNear(text: string, forms: string[], after: string, reach = 300): boolean {
  return forms.some((form) => {
    const needle = searchable(form);
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      if (text.slice(at, at + needle.length + reach).includes(searchable(after))) return true;
    }
    return false;
  });
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

// Each case is rendered once for every test here (rendering is most of this file's time).
const sources = new Map<string, Promise<{ pdf: Buffer; pages: string[] }>>();
/** A case's born-digital PDF (for a scanned case, the one before scanning) and its pages' text. */
function sourceOf(c: IndependentCase): Promise<{ pdf: Buffer; pages: string[] }> {
  let source = sources.get(c.id);
  if (!source) {
    source = c.sourcePdf().then(async (pdf) => ({ pdf, pages: await pdfText(pdf) }));
    sources.set(c.id, source);
  }
  return source;
}
/** The text of a case's source as a reader searches it. */
const textOf = async (c: IndependentCase) => searchable((await sourceOf(c)).pages.join(' '));

describe('the independent deed corpus: its halves', { skip }, () => {
  it('has at least 24 cases in each half, 12 born-digital and 12 scanned at least, with every layout in both forms', () => {
    for (const half of [development, heldOut]) {
      assert.ok(half.length >= 24, `${half.length} cases`);
      assert.ok(half.filter((c) => !c.scanned).length >= 12);
      assert.ok(half.filter((c) => c.scanned).length >= 12);
      for (const [name] of Object.values(layouts)) {
        assert.ok(half.some((c) => c.layout === name && !c.scanned), `${name} born-digital`);
        assert.ok(half.some((c) => c.layout === name && c.scanned), `${name} scanned`);
      }
    }
  });

  it('splits once, by seed: no seed and no id in both halves, each case in the half its seed names', () => {
    const developmentSeeds = new Set(development.map((c) => c.seed));
    assert.ok(heldOut.every((c) => !developmentSeeds.has(c.seed)));
    assert.equal(new Set(everyCase.map((c) => c.id)).size, everyCase.length);
    assert.equal(new Set(everyCase.map((c) => c.seed)).size, everyCase.length);
    assert.ok(development.every((c) => c.half === 'development' && c.seed % 2 === 0));
    assert.ok(heldOut.every((c) => c.half === 'held-out' && c.seed % 2 === 1));
    assert.equal(corpusSeeds().length, everyCase.length);
  });
});

describe('the independent deed corpus: determinism', { skip }, () => {
  it('gives the same truth for the same seed', () => {
    for (const c of everyCase) {
      const again = createIndependentCase(c.seed, c.scanned);
      assert.deepEqual(again.truth, c.truth, c.id);
      assert.deepEqual(again.datesOfBirth, c.datesOfBirth, c.id);
    }
  });

  it('gives the same PDF bytes for the same seed, born-digital', async () => {
    // One case of each layout in each half: every layout's rendering path, at a fraction of the time.
    const sample = everyCase.filter((c, i, all) => !c.scanned && all.findIndex((o) => !o.scanned && o.layout === c.layout && o.half === c.half) === i);
    assert.equal(sample.length, 20);
    for (const c of sample) {
      const first = (await sourceOf(c)).pdf;
      const second = await createIndependentCase(c.seed, false).pdf();
      assert.ok(first.equals(second), `${c.id} differs between two renderings`);
    }
  });

  it('gives different cases for different seeds', () => {
    const names = everyCase.map((c) => JSON.stringify(c.truth));
    assert.equal(new Set(names).size, names.length);
  });
});

describe('the independent deed corpus: the truth is a valid payload', { skip }, () => {
  it('carries ACNs and ABNs only as digits with valid check digits', () => {
    let acns = 0;
    for (const c of everyCase) {
      if (c.truth.trust?.abn) assert.ok(isValidAbn(c.truth.trust.abn), `${c.id} trust ABN ${c.truth.trust.abn}`);
      for (const party of c.truth.parties) {
        if (party.acn !== null) {
          acns++;
          assert.ok(isValidAcn(party.acn), `${c.id} ACN ${party.acn}`);
        }
        if (party.abn !== null) assert.ok(isValidAbn(party.abn), `${c.id} ABN ${party.abn}`);
      }
    }
    assert.ok(acns > 20, 'the corpus prints company numbers');
    // The trap stays in both halves: an ACN printed with a wrong check digit, which the truth leaves out.
    for (const half of [development, heldOut]) assert.ok(half.some((c) => c.truth.parties.some((p) => p.partyKind === 'BUSINESS' && p.acn === null)));
  });

  it('uses SPEC’s roles and CONTRACT’s trust types, and gives each kind of party the fields of its kind', () => {
    for (const c of everyCase) {
      assert.ok(c.truth.trust, `${c.id} names its trust`);
      assert.ok(trustTypes.has(c.truth.trust.trustType!), c.id);
      assert.ok(c.truth.parties.length > 0, c.id);
      for (const party of c.truth.parties) {
        assert.ok(roles.has(party.role), `${c.id} ${party.role}`);
        if (party.partyKind === 'INDIVIDUAL') {
          assert.ok(party.firstName && party.lastName && party.businessName === null && party.acn === null && party.abn === null, c.id);
          assert.doesNotMatch(party.firstName, /^(Mr|Mrs|Ms|Dr)\b/, `${c.id}: a title is not a name`);
        } else {
          assert.ok(party.businessName && party.firstName === null && party.lastName === null, c.id);
        }
      }
    }
  });

  it('never carries a date of birth, while the deeds print some', () => {
    for (const c of everyCase) {
      const json = JSON.stringify(c.truth);
      for (const printed of c.datesOfBirth) assert.ok(!json.includes(printed), `${c.id} leaks ${printed}`);
      assert.doesNotMatch(json, /birth|"dob"/i, c.id);
    }
    for (const half of [development, heldOut]) assert.ok(half.filter((c) => c.datesOfBirth.length > 0).length >= 5, 'dates of birth are printed in several cases of each half');
  });

  it('has the rules of its header: SMSF members are trustees and beneficiaries; directors are not trustees; classes are never parties', () => {
    for (const c of everyCase.filter((o) => o.layout === 'smsf-member-trustees')) {
      const trustees = c.truth.parties.filter((p) => p.role === 'TRUSTEE');
      const members = c.truth.parties.filter((p) => p.role === 'BENEFICIARY');
      assert.ok(trustees.length >= 2, c.id);
      assert.deepEqual(members.map((p) => [p.firstName, p.lastName]), trustees.map((p) => [p.firstName, p.lastName]), c.id);
    }
    for (const c of everyCase.filter((o) => o.layout === 'corporate-trustee')) {
      const trustees = c.truth.parties.filter((p) => p.role === 'TRUSTEE');
      assert.ok(trustees.length === 1 && trustees[0]!.partyKind === 'BUSINESS', `${c.id}: the company alone is trustee, not its directors`);
    }
    for (const c of everyCase) {
      for (const cls of c.truth.beneficiaryClasses) assert.ok(!c.truth.parties.some((p) => p.businessName === cls || `${p.firstName} ${p.lastName}` === cls), c.id);
    }
  });
});

describe('the independent deed corpus: the truth is in the deed', { skip }, () => {
  it('every case is printed on 2–12 pages (born-digital) or 1–3 (scanned), with names, numbers, addresses and dates the truth gives', async () => {
    for (const c of everyCase) {
      const { pages } = await sourceOf(c);
      if (c.scanned) assert.ok(pages.length >= 1 && pages.length <= 3, `${c.id}: ${pages.length} pages`);
      else assert.ok(pages.length >= 2 && pages.length <= 12, `${c.id}: ${pages.length} pages`);
      const text = await textOf(c);
      const trust = c.truth.trust!;
      for (const party of c.truth.parties) {
        assert.ok(printedForms(party).some((form) => text.includes(searchable(form))), `${c.id}: ${printedForms(party)[0]} is not in the deed`);
        if (party.address) assert.ok(printedNear(text, printedForms(party), party.address.full), `${c.id}: ${party.address.full} is not printed with ${printedForms(party)[0]}`);
        if (party.acn) assert.ok(text.replace(/ /g, '').includes(party.acn), `${c.id}: ACN ${party.acn}`);
      }
      assert.ok(text.includes(searchable(trust.name!)), `${c.id}: trust name ${trust.name}`);
      if (trust.abn) assert.ok(text.replace(/ /g, '').includes(trust.abn), `${c.id}: trust ABN`);
      for (const value of [trust.establishedDate, trust.vestingDate, trust.jurisdiction]) if (value) assert.ok(text.includes(searchable(value)), `${c.id}: ${value}`);
      for (const cls of c.truth.beneficiaryClasses) assert.ok(text.includes(searchable(cls)), `${c.id}: class ${cls}`);
      for (const printed of c.datesOfBirth) assert.ok(text.includes(searchable(printed)), `${c.id}: date of birth ${printed} is not printed`);
    }
  });

  it('prints the trust’s name only in the title when the layout says so', async () => {
    for (const c of everyCase.filter((o) => o.layout === 'title-only')) {
      assert.equal(occurrences(await textOf(c), searchable(c.truth.trust!.name!)), 1, c.id);
    }
  });

  it('varies its names: accents, hyphens and particles all occur', () => {
    const names = everyCase.flatMap((c) => c.truth.parties.map((p) => `${p.firstName ?? ''} ${p.lastName ?? ''}`));
    assert.ok(names.some((n) => /[À-ž]/.test(n)), 'accents');
    assert.ok(names.some((n) => /\p{L}-\p{L}/u.test(n)), 'hyphens');
    assert.ok(names.some((n) => /\b(van|de|da|von|di)\b/.test(n)), 'particles');
  });
});

describe('the independent deed corpus: scanned cases', { skip }, () => {
  // One scanned case of each layout (a scan takes seconds): the scan step is the same for all.
  const sample = everyCase.filter((c, i, all) => c.scanned && all.findIndex((o) => o.scanned && o.layout === c.layout) === i);
  it('samples every layout', () => assert.equal(sample.length, Object.keys(layouts).length));
  for (const c of sample) {
    it(`${c.id} is image-only, page for page`, async () => {
      const scanned = await pdfText(await c.pdf());
      const source = (await sourceOf(c)).pages;
      assert.equal(scanned.length, source.length);
      assert.ok(scanned.every((page) => page === ''), 'no text layer');
    });
  }
});
