// Layout 5: a self managed superannuation fund with individual trustees, every member a trustee. The
// members are listed in a schedule with their dates of birth (as fund application forms carry them).
// Truth: each member is a TRUSTEE and a BENEFICIARY (docs/deeds.md: a fund member is reported as a
// beneficiary); the fund has no settlor, vesting day or classes of beneficiary.
import { defaultTerms, fundClauses, generalClauses } from '../clauses.ts';
import { add, addressOf, birth, boilerplate, createDraft, dateOf, deedStyle, introduce, joinAnd, nameOf, paragraph, record, runs, term, truthParties } from '../draft.ts';
import { execution } from '../execution.ts';
import { generateAbn, printAbn } from '../identifiers.ts';
import { createPerson, createPlace, pickFamilyName, type Person } from '../people.ts';
import type { Random } from '../random.ts';
import { capitalised, establishedDate, governingLawSentence, type Written } from './common.ts';

export function writeSmsf(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const family = pickFamilyName(random);
  const place = createPlace(random);
  const count = random.pick([1, 2, 2, 2, 3, 4]);
  const home = createPerson(random, { family, place }).address;
  const members: Person[] = Array.from({ length: count }, (_, i) => {
    const person = createPerson(random, { family: i === 0 || random.chance(0.7) ? family : pickFamilyName(random), place, bornFrom: i < 2 ? 1945 : 1975, bornTo: i < 2 ? 1975 : 2002 });
    person.address = i < 2 ? home : random.chance(0.5) ? home : person.address;
    return person;
  });
  // A one-member fund with individual trustees needs a second trustee who is not a member; this corpus
  // keeps to funds where every trustee is a member, so one member means two.
  if (members.length === 1) members.push({ ...createPerson(random, { family, place, bornFrom: 1945, bornTo: 1975 }), address: home });
  const name = random.pick([`${capitalised(family)} Superannuation Fund`, `${capitalised(family)} Family Super Fund`, `${capitalised(family)} Retirement Fund`, `${capitalised(family)} Super Fund`]);
  const established = establishedDate(random, 1995, 2024);
  const date = dateOf(draft, established, ['long', 'long', 'ordinal']);
  const abn = random.chance(0.45) ? generateAbn(random) : null;
  const terms = { ...defaultTerms, Trust: 'Fund', Trustee: 'Trustee' };

  add(draft, { kind: 'title', text: name.toUpperCase(), size: 18 });
  add(draft, { kind: 'heading', text: random.pick(['SELF MANAGED SUPERANNUATION FUND', 'Self Managed Superannuation Fund']), align: 'center' });
  add(draft, { kind: 'heading', text: random.pick(['TRUST DEED', 'DEED OF ESTABLISHMENT', 'GOVERNING RULES AND TRUST DEED']), align: 'center' });
  if (abn) add(draft, { kind: 'paragraph', text: `ABN ${printAbn(abn)}`, align: 'center' });
  add(draft, { kind: 'rule' });
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on ${date}`)));
  const intro = members.map((m) => introduce(draft, m, { withBirth: random.chance(0.25) }));
  add(draft, paragraph(runs({ text: 'BY: ', bold: true }, joinAnd(intro), ' (each a ', term(draft, 'Trustee'), ' and together the ', term(draft, 'Trustees'), ')')));
  add(draft, { kind: 'heading', text: 'RECITALS' });
  add(draft, { kind: 'clause', number: 'A.', text: `The Trustees wish to establish a superannuation fund to be known as the ${name} (the ${draft.quote('Fund')}) for the provision of benefits to Members upon their retirement, or to their dependants upon their death.` });
  add(draft, { kind: 'clause', number: 'B.', text: 'The Trustees intend that the Fund be a self managed superannuation fund within the meaning of section 17A of the Superannuation Industry (Supervision) Act 1993, and that each Member be a trustee of the Fund.' });
  add(draft, { kind: 'clause', number: 'C.', text: `Each of ${joinAnd(members.map((m) => nameOf(draft, m, 'natural')))} has applied to become a Member of the Fund and has consented to act as a trustee.` });
  add(draft, { kind: 'heading', text: '1. ESTABLISHMENT' });
  add(draft, { kind: 'clause', number: '1.1', text: 'The Fund is established on the date of this Deed, and the Trustees hold the assets of the Fund on the trusts of this Deed and the Rules.' });
  add(draft, { kind: 'clause', number: '1.2', text: 'The persons named in Schedule 1 are admitted as the first Members of the Fund.' });
  members.forEach((m) => {
    record(draft, m, 'TRUSTEE');
    record(draft, m, 'BENEFICIARY');
  });
  const { next } = boilerplate(draft, fundClauses, { from: 2, count: short ? random.int(0, 1) : random.int(5, 12), terms, powers: !short && random.chance(0.4), capitals: random.chance(0.5) });
  if (!short) boilerplate(draft, generalClauses, { from: next, count: 1, terms });
  add(draft, { kind: 'heading', text: `${short ? next : next + 1}. GOVERNING LAW` }, paragraph(governingLawSentence(random, place).replace('of the Trust', 'of the Fund')));

  if (!short) add(draft, { kind: 'page-break' });
  add(draft, { kind: 'heading', text: 'SCHEDULE 1 – INITIAL MEMBERS', align: 'center' });
  const header = ['Member', 'Date of birth', 'Residential address'];
  const rowStyle = random.pick(['natural', 'surname-first', 'capitals'] as const);
  const rows = members.map((m) => [nameOf(draft, m, rowStyle), birth(draft, m, random.pick(['numeric', 'long'] as const)), addressOf(draft, m)]);
  add(draft, { kind: 'table', widths: [4, 2.4, 5], rows: [header, ...rows], borders: random.chance(0.7), shadeFirstRow: true });
  if (!short) execution(draft, members.map((m) => ({ entity: m, capacity: 'Trustee' })));

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established, runningTitle: random.chance(0.5) ? `${name} – Trust Deed` : undefined }),
    truth: {
      trust: { name, abn, trustType: 'SMSF', jurisdiction: place.stateName, establishedDate: date, vestingDate: null },
      parties: truthParties(draft),
      beneficiaryClasses: [],
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
