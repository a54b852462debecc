// How a deed prints a party: name (in capitals in some parties clauses), ACN in one of its spellings,
// address, sometimes a date of birth (which the extractor must never return). A Printer remembers what it
// printed, so the truth holds an address or ABN only when the deed shows it.
import { groupAbn, groupAcn } from './identifiers.ts';
import { fullName, type Party } from './people.ts';
import type { Random } from './random.ts';
import type { ExpectedParty } from './types.ts';

export type AcnStyle = 'ACN spaced' | 'A.C.N. plain' | '(ACN spaced)' | 'Australian Company Number' | 'A.C.N. dotted';
export type ListStyle = 'and' | 'numbered' | 'semicolon';

export interface PrintOptions {
  upper?: boolean;
  /** `Name: … Address: …` on lines of their own, as some schedules print a person. */
  sublabels?: boolean;
  address?: boolean;
  /** Print `born 3 March 1985` after the person (never part of the truth). */
  birth?: string;
}

export interface Printer {
  party(p: Party, options?: PrintOptions): string;
  list(parties: readonly Party[], style: ListStyle, options?: PrintOptions): string;
  /** The truth for `p` in `role`, with address and ABN only if printed somewhere (call after printing). */
  expected(p: Party, role: ExpectedParty['role']): ExpectedParty;
}

const upper = (s: string) => s.toLocaleUpperCase('en-AU');

export function createPrinter(r: Random, acnStyle: AcnStyle, companyAddressIntro: 'of' | 'whose registered office is at' | 'of registered office'): Printer {
  const addressShown = new Set<Party>();
  const abnShown = new Set<Party>();
  const printer: Printer = {
    party(p, options = {}) {
      if (options.sublabels && p.kind === 'INDIVIDUAL') {
        if (options.address) addressShown.add(p);
        return `Name: ${fullName(p)}${options.address ? `\nAddress: ${p.address}` : ''}`;
      }
      let text = options.upper ? upper(fullName(p)) : fullName(p);
      if (p.kind === 'BUSINESS') {
        const digits = p.misprintedAcn ?? p.acn;
        const acn =
          acnStyle === 'ACN spaced' ? `ACN ${groupAcn(digits, 'spaced')}`
          : acnStyle === 'A.C.N. plain' ? `A.C.N. ${digits}`
          : acnStyle === '(ACN spaced)' ? `(ACN ${groupAcn(digits, 'spaced')})`
          : acnStyle === 'A.C.N. dotted' ? `A.C.N. ${groupAcn(digits, 'dotted')}`
          : `Australian Company Number ${groupAcn(digits, 'spaced')}`;
        text += ` ${acn}`;
        if (p.abn) {
          text += ` ABN ${groupAbn(p.abn, r.chance(0.7) ? 'spaced' : 'plain')}`;
          abnShown.add(p);
        }
      }
      if (options.address) {
        const intro = p.kind === 'BUSINESS' ? companyAddressIntro : 'of';
        text += ` ${intro} ${p.address}`;
        addressShown.add(p);
      }
      if (p.kind === 'BUSINESS' && p.capacity) text += ` as trustee for the ${p.capacity}`;
      if (options.birth && p.kind === 'INDIVIDUAL') text += `, born ${options.birth}`;
      return text;
    },
    list(parties, style, options = {}) {
      const printed = parties.map((p) => printer.party(p, options));
      if (printed.length === 1) return printed[0]!;
      if (style === 'numbered') return printed.map((t, i) => `${i + 1}. ${t}`).join('\n');
      if (style === 'semicolon') return `${printed.slice(0, -1).join('; ')}; and ${printed.at(-1)}`;
      return `${printed.slice(0, -1).join(', ')} and ${printed.at(-1)}`;
    },
    expected(p, role) {
      return {
        role,
        partyKind: p.kind,
        businessName: p.kind === 'BUSINESS' ? p.businessName : null,
        firstName: p.kind === 'INDIVIDUAL' ? p.firstName : null,
        lastName: p.kind === 'INDIVIDUAL' ? p.lastName : null,
        acn: p.kind === 'BUSINESS' && !p.misprintedAcn ? p.acn : null,
        abn: p.kind === 'BUSINESS' && abnShown.has(p) ? p.abn : null,
        address: addressShown.has(p) ? { full: p.address } : null,
      };
    },
  };
  return printer;
}

/** A defined-term parenthetical after a party: `(the "Trustee")`, `("Settlor")`, `(hereinafter called "the Appointor")` … */
export function definedTerm(r: Random, term: string, several = false): string {
  const one = term.replace(/s$/, '');
  const article = /^[AEIOU]/.test(one) ? 'an' : 'a';
  if (several) return r.pick([`(together the "${term}")`, `(jointly the "${term}")`, `(each ${article} "${one}" and together the "${term}")`]);
  return r.pick([`(the "${term}")`, `("${term}")`, `(the ${term})`, `(hereinafter called "the ${term}")`, `(${term})`, `(“${term}”)`]);
}

/** One expected party per role and person (a person printed twice in a role is one party). */
export function dedupe(parties: ExpectedParty[]): ExpectedParty[] {
  const seen = new Map<string, ExpectedParty>();
  for (const p of parties) {
    const key = `${p.role}|${p.businessName ?? `${p.firstName} ${p.lastName}`}`;
    const before = seen.get(key);
    seen.set(key, before ? { ...before, address: before.address ?? p.address, abn: before.abn ?? p.abn } : p);
  }
  return [...seen.values()];
}
