// Layout 6: a unit trust whose initial unitholders are set out in a register table (unitholder, address,
// units held, amount paid). Truth: the trustee, and each unitholder as a BENEFICIARY (docs/deeds.md); a
// company that holds units "as trustee for" another trust is named by its own name, the capacity aside.
import { defaultTerms, generalClauses, unitClauses } from '../clauses.ts';
import { add, addressOf, boilerplate, companyNumbers, createDraft, dateOf, deedStyle, introduce, nameOf, paragraph, record, runs, term, truthParties, type Draft } from '../draft.ts';
import { execution } from '../execution.ts';
import { createCompany, createPerson, createPlace, pickFamilyName, type Entity, type Person } from '../people.ts';
import type { Random } from '../random.ts';
import { createVesting, establishedDate, governingLawSentence, type Written } from './common.ts';

const unitWords = ['Harbourside', 'Kestrel', 'Red Gum', 'Bellbird', 'Southern Cross', 'Tamar Valley', 'Riverbend', 'Coolabah', 'Mallee', 'Ironbark'];

interface Holding {
  holder: Entity;
  units: number;
  /** "as trustee for the X Family Trust", printed after a company holder. */
  capacity: string | null;
}

function holderCell(draft: Draft, holding: Holding): string {
  const name = nameOf(draft, holding.holder, draft.nameStyle === 'titled' ? 'natural' : draft.nameStyle);
  const numbers = companyNumbers(draft, holding.holder, false).trim();
  return [name, numbers, holding.capacity].filter(Boolean).join('\n');
}

export function writeUnitRegister(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const place = createPlace(random);
  const name = `${random.pick(unitWords)} ${random.pick(['Unit Trust', 'Property Unit Trust', 'Investment Unit Trust'])}`;
  const trustee = createCompany(random, { place, kind: random.pick(['Nominees', 'Holdings', 'Property'] as const), capitals: random.chance(0.6), withAbn: random.chance(0.2), mistypedAcn: random.chance(0.1) });
  const directors: Person[] = [createPerson(random, { place, withoutAddress: true }), createPerson(random, { place, withoutAddress: true })];
  const holdings: Holding[] = Array.from({ length: random.int(2, 5) }, () => {
    if (random.chance(0.4)) {
      const family = pickFamilyName(random);
      const company = createCompany(random, { family, place, capitals: random.chance(0.5) });
      const capacity = random.chance(0.6) ? `as trustee for the ${family[0]!.toUpperCase()}${family.slice(1)} Family Trust` : null;
      return { holder: company, units: random.pick([10, 25, 50, 100, 250, 500, 1000]), capacity };
    }
    return { holder: createPerson(random, { place }), units: random.pick([10, 25, 50, 100, 250, 500, 1000]), capacity: null };
  });
  const settlor = random.chance(0.4) ? createPerson(random, { place }) : null;
  const established = establishedDate(random, 1990, 2024);
  const date = dateOf(draft, established);
  const vesting = random.chance(0.7) ? createVesting(random, established) : null;
  const price = random.pick([1, 1, 10]);
  const terms = { ...defaultTerms, Beneficiaries: 'Unitholders' };

  add(draft, { kind: 'title', text: name.toUpperCase(), size: 18 });
  add(draft, { kind: 'heading', text: 'UNIT TRUST DEED', align: 'center' });
  add(draft, { kind: 'rule' });
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on ${date}`)));
  if (settlor) {
    add(draft, paragraph(runs({ text: 'BETWEEN ', bold: true }, introduce(draft, settlor), ' (the ', term(draft, 'Settlor'), ')')));
    record(draft, settlor, 'SETTLOR');
  }
  add(draft, paragraph(runs({ text: settlor ? 'AND ' : 'BY ', bold: true }, introduce(draft, trustee), ' (the ', term(draft, 'Trustee'), ')')));
  record(draft, trustee, 'TRUSTEE');
  add(draft, { kind: 'heading', text: 'RECITALS' });
  add(draft, { kind: 'clause', number: 'A.', text: `The Trustee has agreed to act as trustee of a unit trust to be known as the ${name} (the ${draft.quote('Trust')}).` });
  add(draft, { kind: 'clause', number: 'B.', text: `The persons named in the Register of Initial Unitholders in Schedule 2 have each subscribed for the number of units set against their names at $${price}.00 per unit.` });
  add(draft, { kind: 'heading', text: '1. DEFINITIONS' });
  add(draft, { kind: 'clause', number: '1.1', text: runs(term(draft, 'Unitholder'), ' means a person registered in the Register as the holder of a unit.') });
  add(draft, { kind: 'clause', number: '1.2', text: runs(term(draft, 'Register'), ' means the register of Unitholders kept under this Deed.') });
  if (vesting) add(draft, { kind: 'clause', number: '1.3', text: runs(term(draft, 'Vesting Date'), ` means ${vesting.printed}, or any earlier date the Trustee determines with the consent of a special resolution of Unitholders.`) });
  const { next } = boilerplate(draft, unitClauses, { from: 2, count: short ? random.int(0, 1) : random.int(4, 8), terms, powers: !short && random.chance(0.5), capitals: random.chance(0.5) });
  if (!short) boilerplate(draft, generalClauses, { from: next, count: random.int(1, 2), terms });
  add(draft, { kind: 'heading', text: 'GOVERNING LAW' }, paragraph(governingLawSentence(random, place)));

  if (!short) add(draft, { kind: 'page-break' });
  add(draft, { kind: 'heading', text: 'SCHEDULE 2 – REGISTER OF INITIAL UNITHOLDERS', align: 'center' });
  const rows = holdings.map((h) => [holderCell(draft, h), addressOf(draft, h.holder), h.units.toLocaleString('en-AU'), `$${(h.units * price).toLocaleString('en-AU')}.00`]);
  add(draft, { kind: 'table', widths: [5, 5, 2, 2.4], rows: [['Unitholder', 'Address', 'Units held', 'Amount paid'], ...rows], borders: true, shadeFirstRow: true });
  holdings.forEach((h) => record(draft, h.holder, 'BENEFICIARY'));
  if (!short) execution(draft, [...(settlor ? [{ entity: settlor, capacity: 'Settlor' }] : []), { entity: trustee, capacity: 'Trustee', directors: random.chance(0.6) ? directors : null }]);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established, runningTitle: random.chance(0.5) ? name : undefined }),
    truth: {
      trust: { name, abn: null, trustType: 'UNIT', jurisdiction: place.stateName, establishedDate: date, vestingDate: vesting?.printed ?? null },
      parties: truthParties(draft),
      beneficiaryClasses: [],
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
