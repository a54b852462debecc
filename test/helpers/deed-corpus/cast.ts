// Who a deed names, by kind of trust: a family (a principal, a spouse, children), an unrelated settlor,
// trustee companies, appointors and their successors, a guardian, named beneficiaries, unitholders or
// members. The layout decides where each is printed; the cast decides who they are.
import { makeInvalidAcn } from './identifiers.ts';
import { makeCompany, makePerson, pickFamilyName, type Company, type Party, type Person } from './people.ts';
import type { Random } from './random.ts';
import type { DeedKind } from './types.ts';
import { classWords } from './wording.ts';

export interface Cast {
  familyName: string;
  family: Person[];
  settlor: Party | null;
  trustees: Party[];
  appointors: Party[];
  successors: Party[];
  guardian: Party | null;
  /** Primary or Specified beneficiaries (discretionary, hybrid), fixed-share or bare-trust beneficiaries, SMSF members. */
  named: Party[];
  unitholders: Party[];
  /** Class names as the deed defines them, e.g. `General Beneficiaries`. */
  classes: string[];
  trustName: string;
}

const capitalParticle = (name: string) => name.replace(/^(van der|de la|da|van|de|von|di) /, (p) => p[0]!.toUpperCase() + p.slice(1));
const initials = (p: Person) => p.firstName.split(/[\s-]+/).map((n) => n[0]).join('');

function trustNameFor(r: Random, kind: DeedKind, family: string, family0: Person, family1: Person): string {
  const f = capitalParticle(family);
  const word = r.pick(['Harbour', 'Bayside', 'Wattle Creek', 'Ironbark', 'Southern Cross', 'Red Gum', 'Blue Wren', 'Tallowwood', 'Saltbush', 'Meridian']);
  switch (kind) {
    case 'DISCRETIONARY':
      return r.pick([`${f} Family Trust`, `${f} Family Trust`, `${initials(family0)} & ${initials(family1)} ${f} Family Trust`, `${f} Discretionary Trust`, `${word} Investment Trust`]);
    case 'UNIT':
      return r.pick([`${word} Unit Trust`, `${word} Property Trust`, `${f} Unit Trust`]);
    case 'HYBRID':
      return r.pick([`${word} Hybrid Trust`, `${f} Investment Trust`, `${word} Opportunity Trust`]);
    case 'FIXED':
      return r.pick([`${word} Fixed Trust`, `${f} Property Trust`]);
    case 'BARE':
      return r.pick([`${f} Holding Trust`, `${word} Bare Trust`, `${r.between(2, 180)} ${word} Road Property Trust`]);
    case 'SMSF':
      return r.pick([`${f} Superannuation Fund`, `${f} Family Super Fund`, `${word} Retirement Fund`]);
  }
}

/** What a case insists on; anything left out is drawn from the seed. */
export interface CastForce {
  trustee?: 'company' | 'individuals';
  appointors?: number;
  successors?: number;
  guardian?: boolean;
}

export function castFor(r: Random, kind: DeedKind, options: { misprintAcn?: boolean; force?: CastForce } = {}): Cast {
  const force = options.force ?? {};
  const familyName = pickFamilyName(r);
  // Everyone in one deed has a name of their own: two Jack Smiths would be one party to a reader.
  const used = new Set<string>();
  const person = (lastName?: string): Person => {
    for (;;) {
      const p = makePerson(r, lastName);
      if (used.has(p.firstName.split(' ')[0]!) || used.has(p.lastName + p.firstName)) continue;
      used.add(p.firstName.split(' ')[0]!);
      used.add(p.lastName + p.firstName);
      return p;
    }
  };
  const p1 = person(familyName);
  const p2 = person(r.chance(0.7) ? familyName : pickFamilyName(r));
  const kids = Array.from({ length: r.int(4) }, () => person(familyName));
  const family = [p1, p2, ...kids];
  const company = (k: string, withAbn = r.chance(0.2)) => makeCompany(r, { familyName, kind: k, withAbn });
  const outsider = () => (r.chance(0.15) ? company(r.pick(['Accounting Services', 'Management'])) : person());

  const cast: Cast = { familyName, family, settlor: null, trustees: [], appointors: [], successors: [], guardian: null, named: [], unitholders: [], classes: [], trustName: trustNameFor(r, kind, familyName, p1, p2) };
  const classes = () => [...r.sample(classWords, r.between(1, 2)).map((w) => `${w} Beneficiaries`), ...(r.chance(0.5) ? ['Default Beneficiaries'] : [])];

  if (kind === 'DISCRETIONARY' || kind === 'HYBRID') {
    cast.settlor = outsider();
    const corporate = force.trustee ? force.trustee === 'company' : r.chance(0.65);
    cast.trustees = corporate ? [company(r.pick(['Nominees', 'Holdings', 'Investments', 'Custodians']))] : r.chance(0.5) ? [p1, p2] : [p1];
    const appointorSets: Party[][] = [[p1], [p1, p2], [p1, p2], ...(kids[0] ? [[p1, p2, kids[0]]] : [])];
    if (force.appointors) {
      while (family.length < force.appointors + (force.successors ?? 0)) family.push(person(familyName));
      cast.appointors = family.slice(0, force.appointors);
    } else cast.appointors = corporate && r.chance(0.12) ? [cast.trustees[0]!] : r.pick(appointorSets);
    if (force.successors) while (family.filter((p) => !cast.appointors.includes(p)).length < force.successors) family.push(person(familyName));
    const candidates = family.filter((p) => !cast.appointors.includes(p));
    const successors = force.successors ?? (candidates.length && r.chance(0.55) ? r.between(1, Math.min(2, candidates.length)) : 0);
    cast.successors = candidates.slice(0, successors);
    if (force.guardian ?? r.chance(0.4)) cast.guardian = r.chance(0.2) ? company('Management') : person();
    cast.named = family.slice(0, r.between(1, Math.min(4, family.length)));
    cast.classes = classes();
    if (kind === 'HYBRID') cast.unitholders = r.chance(0.5) ? [p1, p2] : [company('Investments'), p1];
  } else if (kind === 'UNIT') {
    if (r.chance(0.6)) cast.settlor = outsider();
    cast.trustees = [company(r.pick(['Nominees', 'Management', 'Capital']))];
    const holders: Party[] = [p1, company('Investments'), p2, person()];
    cast.unitholders = r.sample(holders, r.between(1, 3));
    if (r.chance(0.3)) cast.appointors = [p1];
  } else if (kind === 'FIXED') {
    cast.settlor = outsider();
    cast.trustees = (force.trustee ? force.trustee === 'company' : r.chance(0.7)) ? [company('Nominees')] : [p1];
    cast.named = [p1, p2, ...kids].slice(0, r.between(2, 3));
  } else if (kind === 'BARE') {
    cast.trustees = [company(r.pick(['Custodians', 'Property']))];
    const fund = company('Super', true);
    fund.capacity = `${capitalParticle(familyName)} Superannuation Fund`;
    cast.named = [r.chance(0.6) ? fund : p1];
  } else {
    if (r.chance(0.4)) cast.settlor = outsider();
    cast.named = family.slice(0, r.between(1, Math.min(4, family.length)));
    cast.trustees = (force.trustee ? force.trustee === 'company' : r.chance(0.5)) ? [company('Super')] : [...cast.named];
  }
  if (options.misprintAcn) {
    const target = [...cast.trustees, ...cast.unitholders, ...cast.named].find((p): p is Company => p.kind === 'BUSINESS');
    if (target) target.misprintedAcn = makeInvalidAcn(r);
  }
  return cast;
}
