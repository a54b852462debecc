// The roles of people on a verification (SPEC's VerificationRole), and how a bound lookup's register
// roles become them. Pure functions.

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
