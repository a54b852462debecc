// The roles of people on a verification (SPEC's VerificationRole), how a bound lookup's register roles
// become them, and how they are said in words: the hosted page and the reports say a role the same way.
// Pure functions.

export const verificationRoles = [
  'DIRECTOR',
  'OFFICER',
  'SENIOR_MANAGING_OFFICIAL',
  'AUTHORISED_REP',
  'UBO',
  'INDIVIDUAL_OWNER',
  'PARTNER_MEMBER',
  'MEMBER',
  'TRUSTEE',
  'APPOINTOR',
  'BENEFICIARY',
  'SETTLOR',
  'PROTECTOR_GUARDIAN',
  'OTHER_CONTROLLER',
  'OTHER',
] as const;
export type VerificationRole = (typeof verificationRoles)[number];

const known = new Set<string>(verificationRoles);

/** SPEC: an unrecognised role is not refused; it is stored as OTHER. */
export function roleOf(given: string | undefined): VerificationRole {
  const role = given?.trim().toUpperCase();
  return role && known.has(role) ? (role as VerificationRole) : 'OTHER';
}

/** A lookup party's register role as a verification role; a secretary is an officer. */
const fromRegister: Record<string, VerificationRole> = {
  UBO: 'UBO',
  DIRECTOR: 'DIRECTOR',
  SECRETARY: 'OFFICER',
  OFFICER: 'OFFICER',
  SHAREHOLDER: 'MEMBER',
  INDIVIDUAL_OWNER: 'INDIVIDUAL_OWNER',
};

/** What matters most for due diligence first (CONTRACT §6: UBO over DIRECTOR over OFFICER). */
const significance: readonly string[] = ['INDIVIDUAL_OWNER', 'UBO', 'DIRECTOR', 'SECRETARY', 'OFFICER', 'SHAREHOLDER'];

export interface BoundParty {
  idvEntityId: string;
  role: VerificationRole;
  /** The person's other register roles, e.g. `DIRECTOR, SECRETARY`; null when they have one. */
  roleDescription: string | null;
}

/**
 * One entry per person of a lookup's (person, role) list, in the order people first appear: the most
 * significant role as the role, the others named in roleDescription.
 */
export function partiesOf(individuals: ReadonlyArray<{ idvEntityId: string; role: string }>): BoundParty[] {
  const byPerson = new Map<string, string[]>();
  for (const { idvEntityId, role } of individuals) byPerson.set(idvEntityId, [...(byPerson.get(idvEntityId) ?? []), role]);
  return [...byPerson].map(([idvEntityId, roles]) => {
    const ranked = [...new Set(roles)].sort((a, b) => rank(a) - rank(b));
    const others = ranked.slice(1);
    return { idvEntityId, role: fromRegister[ranked[0]!] ?? 'OTHER', roleDescription: others.length ? others.join(', ') : null };
  });
}

function rank(role: string): number {
  const at = significance.indexOf(role);
  return at === -1 ? significance.length : at;
}

/** A role in words, and the article it takes: the list shares one article while the next takes the same kind. */
type RoleNoun = { article: 'a' | 'an' | 'the'; noun: string };

const a = (noun: string): RoleNoun => ({ article: 'a', noun });
const an = (noun: string): RoleNoun => ({ article: 'an', noun });

/**
 * SPEC's VerificationRole values and the register's roles (a bound person's other roles are in
 * roleDescription, `DIRECTOR, SECRETARY`: partiesOf), in the words a person uses. OTHER and codes not
 * here say nothing.
 */
const roleNouns: Record<string, RoleNoun> = {
  DIRECTOR: a('director'),
  SECRETARY: a('company secretary'),
  COMPANY_SECRETARY: a('company secretary'),
  OFFICER: an('officer'),
  SENIOR_MANAGING_OFFICIAL: a('senior managing official'),
  AUTHORISED_REP: an('authorised representative'),
  AUTHORISED_REPRESENTATIVE: an('authorised representative'),
  UBO: a('beneficial owner'),
  BENEFICIAL_OWNER: a('beneficial owner'),
  // A sole trader's proprietor: the business's name is the person's own (roleEntity).
  INDIVIDUAL_OWNER: { article: 'the', noun: 'owner of the business' },
  PARTNER_MEMBER: a('partner'),
  PARTNER: a('partner'),
  MEMBER: a('member'),
  SHAREHOLDER: a('shareholder'),
  TRUSTEE: a('trustee'),
  APPOINTOR: an('appointor'),
  BENEFICIARY: a('beneficiary'),
  SETTLOR: { article: 'the', noun: 'settlor' },
  PROTECTOR_GUARDIAN: a('protector or guardian'),
  OTHER_CONTROLLER: a('person with control'),
};

/** Register codes as partiesOf writes them (`DIRECTOR, SECRETARY`): capitals, digits, `_`, `-` and spaces. */
const codeShape = /^[A-Z][A-Z0-9]*(?:[ _-][A-Z0-9]+)*$/;

/** `a, b and c`. */
const listed = (said: string[]) => (said.length === 1 ? said[0]! : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}`);

export interface RolesInWords {
  /** For a sentence, with articles: `a beneficial owner, director and company secretary`; null when no code is known. */
  roles: string | null;
  /** For a label, the same words without articles: `Beneficial owner, director and company secretary`. */
  label: string | null;
  /** A roleDescription that is not codes: the partner's own words about the role, to be said apart as theirs. */
  described: string | null;
  /**
   * The description's codes that have no words here (`CFO`), as given: a page for the person leaves them
   * out, but a report keeps everything the partner or the register said.
   */
  unnamed: string[];
}

/**
 * A person's roles in words: the role and, when `roleDescription` is codes (a bound person's other
 * register roles), those too. A description that is not codes is the partner's own words about the role
 * (SPEC: free text), answered apart as such.
 */
export function describeRoles(role: string, roleDescription: string | null): RolesInWords {
  const parts = (roleDescription ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  const codes = parts.every((part) => codeShape.test(part)) ? parts.map((part) => part.replace(/[ -]/g, '_')) : [];
  const nouns = [...new Map([role, ...codes].flatMap((code) => (roleNouns[code] ? [[roleNouns[code].noun, roleNouns[code]] as const] : []))).values()];
  const said = nouns.map(({ article, noun }, i) => {
    const previous = nouns[i - 1];
    // One article for a run of the same kind: `a director and company secretary`, `the owner … and a partner`.
    const shared = previous && (previous.article === 'the') === (article === 'the');
    return shared ? noun : `${article} ${noun}`;
  });
  const label = nouns.length === 0 ? null : listed(nouns.map((n) => n.noun));
  return {
    roles: said.length === 0 ? null : listed(said),
    label: label && label[0]!.toUpperCase() + label.slice(1),
    described: parts.length > 0 && codes.length === 0 ? roleDescription!.trim() : null,
    unnamed: parts.filter((_, i) => codes[i] !== undefined && !roleNouns[codes[i]!]),
  };
}


/** The business a role is said to be of: none for a sole trader's owner, whose business name is their own name. */
export function roleEntity(role: string, entityName: string | null): string | null {
  return role === 'INDIVIDUAL_OWNER' ? null : entityName;
}
