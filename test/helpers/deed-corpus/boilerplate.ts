// The operative clauses every deed carries and no extractor should take a party from: powers,
// distributions, accounts, tax. Full of role words (`the Appointor may remove the Trustee`, `as trustee`,
// `Schedule 2F`) on purpose. A long deed repeats them, varied, until it passes 100 pages.
import type { DeedKind } from './types.ts';
import type { Random } from './random.ts';

export interface Roles {
  trustee: string;
  appointor: string | null;
  guardian: string | null;
  beneficiary: string;
  kind: DeedKind;
  trusteeAct: string;
}

const general = [
  'the {T} may invest any money forming part of the Trust Fund in any investment which the {T} in its absolute discretion thinks fit, as if it were the absolute owner of that money',
  'the {T} may borrow or raise money with or without security on such terms as the {T} thinks fit, and may give any guarantee or indemnity',
  'no {T} is liable for any loss to the Trust Fund unless the loss arises from that {T}’s own dishonesty or wilful breach of trust',
  'the {T} must keep proper accounts and records of the Trust Fund and may engage an auditor to audit them',
  'any company in which a {B} holds shares, whether as trustee or otherwise, may receive a distribution under this Deed',
  'the {T} may lend money to any {B} with or without interest or security',
  'where there is more than one {T}, they may act by majority, and a written resolution signed by all of them is as valid as a resolution passed at a meeting',
  'notice to a party may be given by hand, by prepaid post to its last known address, or by email to the address last notified',
  'the {T} may make an election under section 272-80 of Schedule 2F of the Income Tax Assessment Act 1936 (Cth) in respect of the Trust',
  'the {T} may apply any income or capital for the maintenance, education, advancement in life or benefit of any {B} who is a minor',
  'the {T} may exercise any power under this Deed even though the {T} is also a {B} or has a personal interest in the exercise of the power',
  'the {T} is not required to account for any remuneration received as a director of a company in which the Trust Fund is invested',
  'the {T} may appoint any person, including a {B}, to act as its attorney or agent for any purpose',
  'nothing in this Deed requires the {T} to diversify the investments of the Trust Fund',
  'the {T} may settle, compromise or submit to arbitration any claim by or against the Trust',
  'the {T} may open and operate accounts with any bank or financial institution in the name of the Trust',
  'the {T} may hold any investment in the name of a nominee or custodian',
  'in exercising any discretion the {T} need not give reasons, and its decision is final and binding on every {B}',
  'the {T} is entitled to be indemnified out of the Trust Fund for all liabilities properly incurred in the execution of the trusts of this Deed',
  'a reference to a statute includes any regulation made under it and any amendment or re-enactment of it',
  'the powers conferred by the {A} are in addition to those conferred on trustees by the {ACT}',
  'the {T} may accept additional property from any person, other than the Settlor, to be held on the trusts of this Deed',
  'the {T} may carry on any business, alone or in partnership, and may employ any money of the Trust Fund in it',
  'the {T} may insure any asset of the Trust Fund against any risk and for any amount',
];
const withAppointor = [
  'the {P} may at any time, by notice in writing to the {T}, remove any {T} and appoint a new or additional {T}',
  'a power conferred on the {P} is personal to the {P} and is not exercisable by a trustee in bankruptcy',
  'if the {P} is a company, the powers of the {P} are exercisable by resolution of its directors',
  'the {T} must not vary this Deed without the prior written consent of the {P}',
  'where there is more than one {P}, the {P}s must act jointly and unanimously',
];
const withGuardian = [
  'the {G} may resign by giving notice in writing to the {T}, and the resignation takes effect when the notice is received',
  'the {T} must not exercise a power to which this clause applies without the prior written consent of the {G}',
  'the {G} is not liable for any act or omission in good faith in the exercise of the office of {G}',
];
const unitSentences = [
  'the {T} may issue Units at the Issue Price determined in accordance with this Deed',
  'a Unitholder may transfer Units only with the consent of the {T}',
  'each Unit confers an equal undivided interest in the Trust Fund but does not confer an interest in any particular asset',
  'the {T} must keep a register of Unitholders recording the name and address of each Unitholder and the number of Units held',
  'the {T} may redeem Units at the request of a Unitholder at the Redemption Price',
];
const superSentences = [
  'the Fund is to be maintained solely for the purposes set out in section 62 of the Superannuation Industry (Supervision) Act 1993 (Cth)',
  'each Member must be a trustee of the Fund or a director of the corporate trustee of the Fund',
  'the {T} must not accept contributions in respect of a Member except as permitted by the Relevant Law',
  'benefits are payable to a Member on retirement, death or the satisfaction of any other condition of release',
  'the {T} may pay a death benefit to the legal personal representative or the dependants of a deceased Member',
];
const openings = ['', '', 'Subject to this Deed, ', 'Without limiting any other provision of this Deed, ', 'Notwithstanding any rule of law or equity to the contrary, ', 'Except as otherwise provided, '];
const closings = ['', '', ' This power may be exercised from time to time.', ' The {T} is not liable for any loss resulting from the exercise of this power in good faith.', ' Any such act binds every {B}.'];

export const partTitles = [
  'TRUSTEE’S POWERS', 'INVESTMENT', 'DISTRIBUTION OF INCOME', 'DISTRIBUTION OF CAPITAL', 'ACCOUNTS AND AUDIT', 'APPOINTMENT AND REMOVAL OF TRUSTEES',
  'REMUNERATION AND INDEMNITY', 'LIABILITY OF TRUSTEE', 'MEETINGS AND RESOLUTIONS', 'NOTICES', 'TAXATION', 'STREAMING OF INCOME', 'LOANS AND GUARANTEES',
  'DEALINGS WITH INTERESTED PERSONS', 'RECORDS', 'MISCELLANEOUS', 'ADMINISTRATIVE PROVISIONS', 'PROTECTION OF THIRD PARTIES',
];

function fill(text: string, roles: Roles): string {
  return text
    .replaceAll('{T}', roles.trustee)
    .replaceAll('{P}', roles.appointor ?? roles.trustee)
    .replaceAll('{G}', roles.guardian ?? roles.trustee)
    .replaceAll('{B}', roles.beneficiary)
    .replaceAll('{A}', 'this Deed')
    .replaceAll('{ACT}', roles.trusteeAct);
}

/** One sentence of boilerplate, capitalised and with a full stop. */
export function boilerplateSentence(r: Random, roles: Roles): string {
  const pools = [general, general];
  if (roles.appointor) pools.push(withAppointor);
  if (roles.guardian) pools.push(withGuardian);
  if (roles.kind === 'UNIT' || roles.kind === 'HYBRID') pools.push(unitSentences, unitSentences);
  if (roles.kind === 'SMSF') pools.push(superSentences, superSentences);
  const core = r.pick(r.pick(pools));
  const opening = r.pick(openings);
  const sentence = `${opening}${opening ? core : core.charAt(0).toUpperCase() + core.slice(1)}.${r.pick(closings)}`;
  return fill(sentence, roles);
}

/** A clause: numbered subclauses of one to three sentences each. */
export function boilerplateClause(r: Random, roles: Roles, number: string, subclauses: number): string[] {
  const out: string[] = [];
  for (let i = 1; i <= subclauses; i++) {
    const sentences = Array.from({ length: r.between(1, 3) }, () => boilerplateSentence(r, roles));
    out.push(`${number}.${i} ${sentences.join(' ')}`);
  }
  return out;
}
