// Layout 3: the particulars in a two-column schedule drawn as a real table (a label cell and a value cell
// per row, bordered), at the front of the deed or at its end; the operative clauses only refer to items.
import { discretionaryClauses, defaultTerms } from '../clauses.ts';
import { add, addressOf, birth, boilerplate, createDraft, dateOf, deedStyle, nameOf, paragraph, record, runs, term, truthParties, type Draft } from '../draft.ts';
import type { Inline } from '../document.ts';
import { execution } from '../execution.ts';
import { printAcn } from '../identifiers.ts';
import type { Entity } from '../people.ts';
import type { Random } from '../random.ts';
import { beneficiaryClasses, createFamilyCast, createVesting, establishedDate, familyTrustName, settledSum, type Written } from './common.ts';

/** A party in a cell: the name on its own line, then the numbers, the birth date and the address beneath. */
function cellFor(draft: Draft, entity: Entity, withBirth: boolean): string {
  const lines = [nameOf(draft, entity, draft.random.pick(['capitals', 'surname-first', 'natural'] as const))];
  if (entity.kind === 'company' && entity.acnPrinted) lines.push(`${draft.acnLabel} ${printAcn(entity.acnPrinted, draft.numberStyle)}`);
  if (entity.kind === 'person' && withBirth) lines.push(`Date of birth: ${birth(draft, entity)}`);
  if (entity.address) lines.push(addressOf(draft, entity));
  return lines.join('\n');
}

export function writeScheduleTable(random: Random, short: boolean): Written {
  const draft = createDraft(random, short);
  const cast = createFamilyCast(random, { addresses: random.chance(0.7) });
  const name = familyTrustName(random, cast.family);
  const established = establishedDate(random);
  const date = dateOf(draft, established, ['long', 'long', 'ordinal']);
  const vesting = createVesting(random, established);
  const primaryWord = random.pick(['Specified Beneficiaries', 'Primary Beneficiaries']);
  const classes = beneficiaryClasses(random, cast.primary.length > 0, { primary: primaryWord });
  const law = cast.place.stateName;
  const front = short || random.chance(0.6);
  const birthRow = random.chance(0.5);
  const nil = random.pick(['Nil', 'Not applicable', '—']);
  const guardianWord = random.pick(['Guardian', 'Protector']);

  const rows: Inline[][] = [];
  if (random.chance(0.5)) rows.push(['Item', 'Particulars']);
  const row = (label: string, value: string): void => {
    rows.push([label, value]);
  };
  row('Name of Trust', random.chance(0.5) ? name.toUpperCase() : name);
  row(random.pick(['Date of this Deed', 'Commencement Date', 'Date of establishment']), date);
  row('Settlor', cellFor(draft, cast.settlor, false));
  row('Settled Sum', settledSum(random));
  row(cast.trustees.length > 1 ? 'Trustees' : 'Trustee', cast.trustees.map((t) => cellFor(draft, t, false)).join('\n\n'));
  row(cast.appointors.length > 1 ? 'Appointors' : 'Appointor', cast.appointors.map((p) => cellFor(draft, p, birthRow)).join('\n\n'));
  row(guardianWord, cast.guardian ? cellFor(draft, cast.guardian, false) : nil);
  row(primaryWord, cast.primary.length ? cast.primary.map((p) => nameOf(draft, p, 'natural')).join('\n') : nil);
  row('Vesting Day', vesting.printed);
  row(random.pick(['Governing Law', 'Proper Law', 'State whose laws govern this Deed']), law);
  record(draft, cast.settlor, 'SETTLOR');
  cast.trustees.forEach((t) => record(draft, t, 'TRUSTEE'));
  cast.appointors.forEach((p) => record(draft, p, 'APPOINTOR'));
  if (cast.guardian) record(draft, cast.guardian, 'PROTECTOR_GUARDIAN');
  cast.primary.forEach((p) => record(draft, p, 'BENEFICIARY'));
  const schedule = { kind: 'table' as const, widths: [random.pick([3, 4]), 7], rows, borders: true, shadeFirstRow: rows[0]![0] === 'Item', boldFirstColumn: true };

  add(draft, { kind: 'title', text: random.pick(['DISCRETIONARY TRUST DEED', 'FAMILY TRUST DEED', 'DEED OF TRUST']), size: 17 });
  if (front) add(draft, { kind: 'heading', text: 'SCHEDULE', align: 'center' }, schedule);
  add(draft, paragraph(runs({ text: 'THIS DEED ', bold: true }, `is made on the date stated in the Schedule by the person named in the Schedule as Settlor in favour of the person or persons named in the Schedule as Trustee.`)));
  add(draft, { kind: 'heading', text: '1. DEFINITIONS' });
  add(draft, { kind: 'clause', number: '1.1', text: runs(term(draft, 'Appointor'), ' means the person or persons named as Appointor in the Schedule, and any successor.') });
  add(draft, { kind: 'clause', number: '1.2', text: runs(term(draft, primaryWord), ' means the persons (if any) named as such in the Schedule.') });
  classes.forEach((cls, i) => add(draft, { kind: 'clause', number: `1.${i + 3}`, text: runs(term(draft, cls.name), ` means ${cls.definition}.`) }));
  add(draft, { kind: 'clause', number: `1.${classes.length + 3}`, text: runs(term(draft, 'Trust'), ' means the trust constituted by this Deed and known by the name stated in the Schedule.') });
  const terms = { ...defaultTerms, Guardian: guardianWord, Beneficiaries: classes[0]!.name };
  const { next } = boilerplate(draft, discretionaryClauses, { from: 2, count: short ? random.int(0, 1) : random.int(5, 32), terms, powers: !short && random.chance(0.5) });
  add(draft, { kind: 'heading', text: `${next}. PROPER LAW` }, paragraph('This Deed is governed by the law of the State or Territory stated in the Schedule.'));
  if (!front) add(draft, { kind: 'page-break' }, { kind: 'heading', text: 'SCHEDULE', align: 'center' }, schedule);
  if (!short) execution(draft, [{ entity: cast.settlor, capacity: 'Settlor' }, ...cast.trustees.map((t) => ({ entity: t, capacity: 'Trustee' }))]);

  return {
    blocks: draft.blocks,
    style: deedStyle(draft, { createdAt: established }),
    truth: {
      trust: { name, abn: null, trustType: 'DISCRETIONARY', jurisdiction: law, establishedDate: date, vestingDate: vesting.printed },
      parties: truthParties(draft),
      beneficiaryClasses: classes.map((c) => c.name),
    },
    datesOfBirth: draft.datesOfBirth,
  };
}
