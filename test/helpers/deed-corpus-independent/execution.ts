// Execution pages: who signs, in whose presence. Witnesses and the directors who sign for a company are
// printed here and are never parties of the trust (the header of index.ts says why).
import { add, nameOf, companyNumbers, type Draft } from './draft.ts';
import type { Block } from './document.ts';
import { createPerson, type Company, type Entity, type NameStyle, type Person } from './people.ts';

const line = '.......................................................';

function individualRows(draft: Draft, person: Person, capacity: string, opening: string, style: NameStyle): string[][] {
  const name = nameOf(draft, person, style);
  const witness = createPerson(draft.random, { withoutAddress: true });
  return [
    [`${opening} ${name}${capacity ? ` as ${capacity}` : ''} in the presence of:`, `${line}\nSignature of ${name}`],
    [`${line}\nSignature of witness\n${nameOf(draft, witness, 'natural')}\nName of witness (print)`, ''],
  ];
}

function companyRows(draft: Draft, company: Company, capacity: string, directors: Person[] | null, style: NameStyle): string[][] {
  const numbers = companyNumbers(draft, company, false);
  const opening = `EXECUTED by ${company.name}${numbers}${capacity ? ` as ${capacity}` : ''} in accordance with section 127 of the Corporations Act 2001 (Cth):`;
  const printed = (person: Person | undefined): string => (person ? nameOf(draft, person, style) : '');
  if (directors && directors.length === 1) {
    return [[opening, ''], [`${line}\nSignature of sole director and sole company secretary\n${printed(directors[0])}`, '']];
  }
  return [
    [opening, ''],
    [`${line}\nSignature of director\n${printed(directors?.[0])}\nName of director (print)`, `${line}\nSignature of director/secretary\n${printed(directors?.[1])}\nName of director/secretary (print)`],
  ];
}

export interface Signatory {
  entity: Entity;
  /** "Trustee", "Appointor"…; empty for none. */
  capacity: string;
  /** For a company: the directors who sign (null leaves the name lines blank). */
  directors?: Person[] | null;
}

/** The execution page: a heading, "EXECUTED as a deed", and one borderless grid per signatory. */
export function execution(draft: Draft, signatories: Signatory[], options: { heading?: boolean } = {}): void {
  if (options.heading ?? true) add(draft, { kind: 'heading', text: draft.random.pick(['EXECUTED AS A DEED', 'EXECUTION', 'Executed as a deed.']) });
  // One practice, one template: the wording and the way names are printed hold for the whole page.
  const opening = draft.random.pick(['SIGNED SEALED AND DELIVERED by', 'EXECUTED AS A DEED by', 'Signed, sealed and delivered by']);
  const style = draft.random.pick<NameStyle>(['capitals', 'natural']);
  for (const signatory of signatories) {
    const rows =
      signatory.entity.kind === 'person'
        ? individualRows(draft, signatory.entity, signatory.capacity, opening, style)
        : companyRows(draft, signatory.entity, signatory.capacity, signatory.directors ?? null, style);
    const block: Block = { kind: 'table', widths: [1, 1], rows, borders: false };
    add(draft, block, { kind: 'space', points: 6 });
  }
}
