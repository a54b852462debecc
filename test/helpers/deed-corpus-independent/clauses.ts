// Boilerplate: the operative clauses that fill a real deed between the parties and the execution page.
// They name roles ("the Appointor"), never people, as real deeds do. {Trustee}, {Appointor}, {Guardian},
// {Trust} and {Beneficiaries} are replaced by the terms each deed defines.

export interface Clause {
  heading: string;
  paragraphs: string[];
}

export const discretionaryClauses: Clause[] = [
  {
    heading: 'Declaration of trust',
    paragraphs: [
      'The {Trustee} declares that it holds and will hold the Trust Fund upon the trusts and with and subject to the powers and provisions contained in this Deed.',
      'The {Trust} is not a bare trust. No beneficiary has any interest in any particular asset of the Trust Fund until a determination of the {Trustee} or the Vesting Day confers one.',
    ],
  },
  {
    heading: 'Income of the Trust Fund',
    paragraphs: [
      'The {Trustee} may, at any time before the end of each Accounting Period, determine to pay, apply or set aside the whole or any part of the Net Income of that Accounting Period for any one or more of the {Beneficiaries} then living or in existence, in such proportions as the {Trustee} in its absolute discretion thinks fit.',
      'A determination under this clause may be made orally, by resolution or in writing, and need not be communicated to any beneficiary before it takes effect. A determination may identify the amount to which a beneficiary is entitled by reference to a formula.',
      'Any Net Income in respect of which no effective determination is made by the end of the Accounting Period shall be held for the Default Beneficiaries, if any, in equal shares absolutely, and failing them shall be accumulated and added to the capital of the Trust Fund.',
    ],
  },
  {
    heading: 'Streaming of capital gains and franked distributions',
    paragraphs: [
      'For the purposes of Subdivision 115-C and Subdivision 207-B of the Income Tax Assessment Act 1997, the {Trustee} may make a beneficiary specifically entitled to all or part of a capital gain or a franked distribution by recording the determination in the accounts of the {Trust} within the time the law allows.',
      'The {Trustee} may treat different classes of income differently and may determine that any class of income is to be distributed to a particular beneficiary to the exclusion of the others.',
    ],
  },
  {
    heading: 'Accumulation',
    paragraphs: [
      'Notwithstanding any other provision of this Deed, the {Trustee} may accumulate the whole or any part of the Net Income of any Accounting Period. Income so accumulated forms part of the capital of the Trust Fund and may be dealt with as capital.',
    ],
  },
  {
    heading: 'Capital of the Trust Fund',
    paragraphs: [
      'The {Trustee} may at any time before the Vesting Day pay, transfer or apply the whole or any part of the capital of the Trust Fund to or for the benefit of any one or more of the {Beneficiaries}, in such shares and subject to such conditions as the {Trustee} determines.',
      'On the Vesting Day the {Trustee} shall hold the capital and income of the Trust Fund for such of the Default Beneficiaries as are then living, in equal shares as tenants in common, and if there is none, for the General Beneficiaries then living in equal shares.',
    ],
  },
  {
    heading: 'Powers of the {Trustee}',
    paragraphs: [
      'In addition to the powers conferred by law, the {Trustee} has all the powers of a natural person, including the power to invest in any form of property in or outside Australia, to borrow and raise money with or without security, to guarantee the obligations of any person, and to carry on any business.',
      'The {Trustee} may lend money to any beneficiary, with or without interest or security, and may permit any beneficiary to occupy or use any real or personal property forming part of the Trust Fund on such terms as the {Trustee} determines.',
      'The {Trustee} may exercise any power notwithstanding that it, or any director or shareholder of it, has a personal interest in the manner or result of the exercise of that power.',
    ],
  },
  {
    heading: 'Delegation and agents',
    paragraphs: [
      'The {Trustee} may delegate the exercise of any of its powers or discretions (other than a discretion as to the distribution of income or capital) to any person, and may employ and pay solicitors, accountants, brokers and other agents to transact any business of the {Trust}.',
    ],
  },
  {
    heading: 'Remuneration and indemnity of the {Trustee}',
    paragraphs: [
      'A {Trustee} engaged in any profession or business may charge and be paid all usual professional or other charges for business done by it or its firm in relation to the {Trust}.',
      'The {Trustee} is entitled to be indemnified out of the Trust Fund for all liabilities incurred in the execution or attempted execution of the trusts, other than liabilities arising from its own fraud, dishonesty or wilful breach of trust.',
    ],
  },
  {
    heading: 'Limitation of liability',
    paragraphs: [
      'No {Trustee} is liable for any loss or damage suffered by the Trust Fund or any beneficiary unless it is caused by the fraud, dishonesty or wilful default of that {Trustee}. A {Trustee} who is a company is liable only to the extent of the assets of the Trust Fund from time to time.',
    ],
  },
  {
    heading: 'Appointment and removal of trustees',
    paragraphs: [
      'The {Appointor} may, by deed or by writing signed by the {Appointor}, remove any {Trustee} and appoint one or more persons or a company as a new or additional {Trustee}.',
      'A {Trustee} may retire by giving notice in writing to the {Appointor}. A retiring {Trustee} shall do all things necessary to vest the Trust Fund in the continuing or new {Trustee}.',
      'A {Trustee} ceases to hold office if, being an individual, the {Trustee} dies, becomes bankrupt or becomes of unsound mind, or, being a company, it is wound up or an administrator is appointed to it.',
    ],
  },
  {
    heading: 'Succession of the {Appointor}',
    paragraphs: [
      'The {Appointor} may by deed or will nominate one or more persons to be {Appointor} in succession to the {Appointor}, and may revoke any such nomination.',
      'If at any time there is no {Appointor}, the legal personal representative of the last surviving {Appointor} shall be the {Appointor}, and failing such a representative the {Appointor} shall be the person or persons holding a majority of the units or shares in the {Trustee}.',
      'An {Appointor} who is under a legal disability, or who is a beneficiary convicted of an indictable offence, ceases to be the {Appointor}.',
    ],
  },
  {
    heading: 'Consent of the {Guardian}',
    paragraphs: [
      'Where this Deed requires the consent of the {Guardian}, the power concerned may not be exercised without the prior written consent of the {Guardian}. The {Guardian} acts in a fiduciary capacity and is not entitled to remuneration.',
      'If there is no {Guardian}, any power requiring the consent of the {Guardian} may be exercised without that consent.',
    ],
  },
  {
    heading: 'Exclusion of the Settlor',
    paragraphs: [
      'Notwithstanding anything in this Deed, no part of the capital or income of the Trust Fund shall be paid or lent to, or applied for the benefit of, the Settlor, and the Settlor is not and cannot become a beneficiary, an {Appointor} or a {Trustee} of the {Trust}.',
    ],
  },
  {
    heading: 'Variation of the Deed',
    paragraphs: [
      'The {Trustee} may, with the written consent of the {Appointor}, by deed revoke, add to or vary all or any of the trusts, powers and provisions of this Deed, provided that no variation may alter the Vesting Day to a date later than the perpetuity period, confer any benefit on the Settlor, or result in a resettlement of the Trust Fund.',
    ],
  },
  {
    heading: 'Family trust election',
    paragraphs: [
      'The {Trustee} may make a family trust election or an interposed entity election under Schedule 2F of the Income Tax Assessment Act 1936. After such an election, the {Trustee} shall not make a distribution to any person who is not a member of the family group of the specified individual.',
    ],
  },
  {
    heading: 'Accounts',
    paragraphs: [
      'The {Trustee} shall keep proper books of account of the {Trust}, and may, but need not, cause them to be audited. The {Trustee} may determine whether any receipt or outgoing is to be treated as being on account of income or capital, and its determination binds every beneficiary.',
    ],
  },
  {
    heading: 'Resolutions and minutes',
    paragraphs: [
      'Where there is more than one {Trustee}, the {Trustee} may act by a majority. A resolution in writing signed by each {Trustee} is as valid as if passed at a meeting. The {Trustee} shall keep minutes of every determination made under this Deed.',
    ],
  },
  {
    heading: 'Payments to minors',
    paragraphs: [
      'Where any amount becomes payable to a beneficiary who is a minor, the {Trustee} may pay it to the parent or guardian of the minor, or apply it for the minor’s maintenance, education or advancement, and the receipt of the parent or guardian is a sufficient discharge to the {Trustee}.',
    ],
  },
  {
    heading: 'Foreign persons',
    paragraphs: [
      'Notwithstanding any other provision, no person who is a foreign person within the meaning of the land tax and duties legislation of any State or Territory may be a beneficiary, and no income or capital may be distributed to or held for such a person.',
    ],
  },
  {
    heading: 'Notices',
    paragraphs: [
      'A notice under this Deed must be in writing and may be given personally, by post to the last known address of the recipient, or by electronic communication. A notice sent by post is taken to be received on the third business day after posting.',
    ],
  },
  {
    heading: 'Severance',
    paragraphs: [
      'If any provision of this Deed is invalid, void or unenforceable, that provision shall be read down to the extent necessary, or severed, and the remaining provisions continue in full force.',
    ],
  },
  {
    heading: 'Perpetuity period',
    paragraphs: [
      'The perpetuity period applicable to the {Trust} is eighty years commencing on the date of this Deed. No power may be exercised so as to vest any interest outside that period.',
    ],
  },
  {
    heading: 'Adding and excluding beneficiaries',
    paragraphs: [
      'The {Trustee} may at any time before the Vesting Day, with the written consent of the {Appointor}, by deed add any person or class of persons (other than the Settlor or a {Trustee}) to the {Beneficiaries}, or exclude any person from being a beneficiary, either permanently or for a stated period.',
      'A person excluded under this clause ceases to be a beneficiary from the time stated in the deed of exclusion, and no amount may afterwards be paid or applied for that person’s benefit.',
    ],
  },
  {
    heading: 'Disclaimer by a beneficiary',
    paragraphs: [
      'Any beneficiary may, by notice in writing to the {Trustee}, disclaim the whole or any part of any interest to which the beneficiary is or may become entitled, and the interest disclaimed shall be held as if the beneficiary had died before it arose.',
    ],
  },
  {
    heading: 'Receipts',
    paragraphs: [
      'The receipt of any beneficiary, or of the secretary or treasurer of any charitable institution, for any money or property paid or transferred to it is a complete discharge to the {Trustee}, who need not see to its application.',
    ],
  },
  {
    heading: 'Advancement',
    paragraphs: [
      'The {Trustee} may at any time pay or apply any part of the capital to which a beneficiary is or may become entitled for the advancement in life or benefit of that beneficiary, including for education, marriage, the purchase of a home or the establishment of a business, notwithstanding that the interest of that beneficiary is contingent.',
    ],
  },
  {
    heading: 'Reliance on advice',
    paragraphs: [
      'The {Trustee} may act upon the opinion or advice of any solicitor, accountant, valuer or other professional adviser, whether obtained by the {Trustee} or not, and is not responsible for any loss occasioned by so acting in good faith.',
    ],
  },
  {
    heading: 'Release of powers',
    paragraphs: [
      'The {Trustee} may by deed release or restrict the future exercise of any power or discretion conferred by this Deed, and the {Appointor} may by deed release any power conferred on the {Appointor}, whereupon the power ceases to be exercisable.',
    ],
  },
  {
    heading: 'Conflict of duty and interest',
    paragraphs: [
      'No {Trustee} is disqualified by reason of its office from contracting with the {Trust}, from being a beneficiary, or from exercising any discretion in its own favour, provided that it discloses the nature of its interest in the minutes of the {Trust}.',
      'A director or shareholder of a corporate {Trustee} may vote on any resolution in which the director or shareholder has an interest, and may receive any benefit under the {Trust} as a beneficiary.',
    ],
  },
  {
    heading: 'Entrenched provisions',
    paragraphs: [
      'No variation of this Deed may remove or limit the clause excluding the Settlor from benefit, the clause fixing the perpetuity period, or this clause, and any purported variation to that effect is void.',
    ],
  },
  {
    heading: 'Beneficiaries under a legal disability',
    paragraphs: [
      'Where a beneficiary is under a legal disability, the {Trustee} may hold any amount to which that beneficiary is entitled upon a separate trust for that beneficiary, and may invest and apply it as the {Trustee} thinks fit until the disability ends.',
      'The {Trustee} is not bound to inquire whether any beneficiary is under a legal disability, and shall not be liable for any payment made in good faith to a beneficiary who was in fact under such a disability.',
    ],
  },
  {
    heading: 'Separate trusts and sub-funds',
    paragraphs: [
      'The {Trustee} may set aside any part of the Trust Fund as a separate fund to be held on separate trusts for any one or more of the {Beneficiaries}, and may keep separate accounts for it. Each separate fund shall vest no later than the Vesting Day.',
    ],
  },
];

export const interpretationClauses: Clause[] = [
  {
    heading: 'Interpretation',
    paragraphs: [
      'In this Deed, unless the context otherwise requires, words importing the singular include the plural and vice versa, words importing a gender include every gender, and a reference to a person includes a company, a trust and any other body.',
      'Headings are for convenience only and do not affect interpretation. A reference to a statute includes any statute amending, consolidating or replacing it.',
    ],
  },
];

export const fundClauses: Clause[] = [
  {
    heading: 'Sole purpose',
    paragraphs: [
      'The {Trustee} shall ensure that the Fund is maintained solely for one or more of the core purposes, and, where permitted, one or more of the ancillary purposes, specified in section 62 of the Superannuation Industry (Supervision) Act 1993.',
    ],
  },
  {
    heading: 'Regulated superannuation fund',
    paragraphs: [
      'The {Trustee} shall, within the time allowed, give the Regulator an election that the Superannuation Industry (Supervision) Act 1993 is to apply to the Fund, and shall do all things necessary to ensure the Fund remains a complying superannuation fund.',
    ],
  },
  {
    heading: 'Admission of members',
    paragraphs: [
      'A person may apply to become a Member by completing an application in the form approved by the {Trustee}. The {Trustee} may accept or reject an application, and shall not admit a Member if doing so would cause the Fund to cease to be a self managed superannuation fund.',
      'Every Member shall, upon admission, become a trustee of the Fund or a director of the corporate trustee, as the law requires.',
    ],
  },
  {
    heading: 'Contributions',
    paragraphs: [
      'The {Trustee} may accept contributions in respect of a Member from the Member, an employer of the Member, the spouse of the Member or any other person, only to the extent permitted by the Superannuation Industry (Supervision) Regulations 1994.',
    ],
  },
  {
    heading: 'Member accounts',
    paragraphs: [
      'The {Trustee} shall keep an account for each Member, to which shall be credited the contributions and rollovers received for the Member and the Member’s share of the net earnings of the Fund, and debited any benefits paid, taxes and expenses attributable to the Member.',
    ],
  },
  {
    heading: 'Payment of benefits',
    paragraphs: [
      'A benefit shall be paid to or in respect of a Member only upon the satisfaction of a condition of release and in a form permitted by the relevant law, which may include a lump sum, an account-based pension or a transition to retirement income stream.',
    ],
  },
  {
    heading: 'Binding death benefit nominations',
    paragraphs: [
      'A Member may by notice in writing to the {Trustee} direct the {Trustee} to pay any death benefit to the Member’s legal personal representative or to one or more of the Member’s dependants, in the proportions the notice sets out. A nomination so given binds the {Trustee}, and need not be renewed unless the Member so elects.',
    ],
  },
  {
    heading: 'Reserves',
    paragraphs: [
      'The {Trustee} may establish and maintain reserves, including an investment fluctuation reserve, and shall formulate a strategy for their prudential management consistent with the investment strategy of the Fund.',
    ],
  },
  {
    heading: 'Investment strategy',
    paragraphs: [
      'The {Trustee} shall formulate, review regularly and give effect to an investment strategy having regard to the risk, return, diversification and liquidity of the investments of the Fund, its ability to discharge its liabilities, and whether to hold insurance cover for Members.',
    ],
  },
  {
    heading: 'Borrowing',
    paragraphs: [
      'The {Trustee} shall not borrow money except as permitted by section 67 or section 67A of the Superannuation Industry (Supervision) Act 1993, including by way of a limited recourse borrowing arrangement under which the acquirable asset is held on trust by a custodian.',
    ],
  },
  {
    heading: 'Winding up',
    paragraphs: [
      'The Fund shall be wound up if the {Trustee} so determines or if the law so requires. On winding up, the {Trustee} shall pay or roll over each Member’s benefits in accordance with the relevant law.',
    ],
  },
  {
    heading: 'Amendment',
    paragraphs: [
      'The {Trustee} may by deed amend this Deed, provided that no amendment may reduce the amount of any benefit accrued to a Member without the Member’s written consent, or permit the Fund to cease to be a complying superannuation fund.',
    ],
  },
];

export const unitClauses: Clause[] = [
  {
    heading: 'Division into units',
    paragraphs: [
      'The beneficial interest in the Trust Fund is divided into units. Each unit confers an equal undivided interest in the Trust Fund but does not confer an interest in any particular asset of it.',
    ],
  },
  {
    heading: 'Issue of units',
    paragraphs: [
      'The {Trustee} may issue further units at such price as the {Trustee} determines having regard to the net asset value of the Trust Fund, provided that no units may be issued without the prior written consent of the holders of a majority of the units on issue.',
    ],
  },
  {
    heading: 'Entitlement to income',
    paragraphs: [
      'The {Trustee} shall, in respect of each Accounting Period, hold the Net Income of the Trust Fund for the Unitholders registered at the end of that period, in proportion to the number of units held by each of them.',
    ],
  },
  {
    heading: 'Transfer of units',
    paragraphs: [
      'A Unitholder may transfer units by an instrument in writing in any usual form approved by the {Trustee}. A Unitholder who wishes to transfer units must first offer them to the other Unitholders pro rata at the value determined under this Deed.',
    ],
  },
  {
    heading: 'Redemption',
    paragraphs: [
      'The {Trustee} may, at the request of a Unitholder, redeem all or any of the units held by that Unitholder at the redemption price, being the net asset value per unit as at the date of the request, less any costs of realisation.',
    ],
  },
  {
    heading: 'Register of Unitholders',
    paragraphs: [
      'The {Trustee} shall keep a register of Unitholders in which shall be entered the name and address of each Unitholder, the number of units held and the amount paid on each unit. The register is, in the absence of manifest error, conclusive evidence of the matters it records.',
    ],
  },
  {
    heading: 'Meetings of Unitholders',
    paragraphs: [
      'The {Trustee} may at any time convene a meeting of Unitholders and shall do so at the written request of Unitholders holding not less than ten per cent of the units on issue. A resolution of Unitholders is passed by a majority of votes cast, each unit carrying one vote.',
    ],
  },
  {
    heading: 'Removal of the {Trustee} by Unitholders',
    paragraphs: [
      'Unitholders holding not less than seventy-five per cent of the units on issue may by notice in writing remove the {Trustee} and appoint a new trustee in its place.',
    ],
  },
];

export const bareClauses: Clause[] = [
  {
    heading: 'Nature of the trust',
    paragraphs: [
      'The {Trustee} holds the Asset on a bare trust for the {Beneficiaries} absolutely. The {Trustee} has no active duties other than those set out in this Deed and those imposed by law upon a bare trustee.',
    ],
  },
  {
    heading: 'Acquisition of the Asset',
    paragraphs: [
      'The {Trustee} shall acquire the legal title to the Asset as directed by the {Beneficiaries}, using money provided by the {Beneficiaries} and money borrowed by the {Beneficiaries} under the Loan.',
    ],
  },
  {
    heading: 'Income and outgoings',
    paragraphs: [
      'All rents, profits and other income of the Asset belong to the {Beneficiaries} and shall be paid to it or as it directs. The {Beneficiaries} shall pay all rates, taxes, insurance premiums and outgoings of the Asset.',
    ],
  },
  {
    heading: 'No dealing without direction',
    paragraphs: [
      'The {Trustee} shall not sell, mortgage, lease or otherwise deal with the Asset except at the written direction of the {Beneficiaries}, and, while any amount remains owing under the Loan, with the consent of the Lender.',
    ],
  },
  {
    heading: 'Transfer of the Asset',
    paragraphs: [
      'Upon repayment of the Loan in full, or earlier if the Lender consents, the {Trustee} shall transfer the legal title to the Asset to the {Beneficiaries} or as the {Beneficiaries} directs, and the trust constituted by this Deed shall then end.',
    ],
  },
  {
    heading: 'Replaceable asset',
    paragraphs: [
      'The Asset is a single acquirable asset within the meaning of section 67A of the Superannuation Industry (Supervision) Act 1993. The {Trustee} shall not accept any replacement asset except as that section permits.',
    ],
  },
  {
    heading: 'Indemnity',
    paragraphs: [
      'The {Beneficiaries} indemnifies the {Trustee} against all liabilities, costs and expenses properly incurred by the {Trustee} in holding the Asset, other than those arising from the {Trustee}’s own fraud or wilful default.',
    ],
  },
];

export const generalClauses: Clause[] = [
  {
    heading: 'Counterparts',
    paragraphs: ['This Deed may be executed in any number of counterparts, which together constitute one instrument. A party may execute this Deed by signing an electronic copy of it.'],
  },
  {
    heading: 'Further assurance',
    paragraphs: ['Each party shall do all things and execute all documents reasonably required to give full effect to this Deed.'],
  },
  {
    heading: 'Stamp duty and costs',
    paragraphs: ['Any duty payable on this Deed shall be paid out of the Trust Fund. Each party bears its own costs of negotiating and executing this Deed.'],
  },
];

export interface Terms {
  Trustee: string;
  Appointor: string;
  Guardian: string;
  Trust: string;
  Beneficiaries: string;
}

export const defaultTerms: Terms = { Trustee: 'Trustee', Appointor: 'Appointor', Guardian: 'Guardian', Trust: 'Trust', Beneficiaries: 'Beneficiaries' };

/** A clause's text with the deed's own defined terms in place of the placeholders. */
export function fillTerms(text: string, terms: Terms): string {
  return text.replace(/\{(Trustee|Appointor|Guardian|Trust|Beneficiaries)\}/g, (_, key: keyof Terms) => terms[key]);
}

/** The long list of a trustee's express powers that many deeds carry, item by item. */
export const trusteePowers: string[] = [
  'to invest in, purchase or otherwise acquire shares, stocks, debentures, notes, bonds, options, units in any unit trust, or any other security, whether or not income producing and whether or not fully paid',
  'to purchase, take on lease or otherwise acquire any real or personal property in any part of the world, and any interest in such property',
  'to sell, lease, license, exchange or otherwise dispose of any property forming part of the Trust Fund, for cash or on credit, with or without security',
  'to borrow or raise money from any person, including a beneficiary, with or without security and upon such terms as the {Trustee} thinks fit',
  'to mortgage, charge or otherwise encumber the whole or any part of the Trust Fund, including by a floating charge',
  'to guarantee or indemnify the performance of any obligation of any person, whether or not a beneficiary, and to give security for any such guarantee',
  'to lend money to any person, with or without interest and with or without security, including to any beneficiary free of interest',
  'to carry on any trade or business, alone or in partnership or joint venture, and to employ any part of the Trust Fund in it',
  'to promote or form any company and to subscribe for, acquire and hold shares in it',
  'to insure any property forming part of the Trust Fund against any risk, and to insure the life of any person in whom the {Trust} has an insurable interest',
  'to repair, maintain, improve, develop, subdivide or build upon any land forming part of the Trust Fund',
  'to pay calls on any shares or other securities held as part of the Trust Fund',
  'to enter into futures contracts, options, swaps and other derivative or hedging arrangements',
  'to open and operate accounts with any bank, building society or other financial institution, and to draw, accept and negotiate bills of exchange and cheques',
  'to compromise, settle or submit to arbitration any claim by or against the {Trustee} in connection with the {Trust}',
  'to commence, defend or discontinue any legal proceedings concerning the Trust Fund',
  'to accept any property, by way of gift, bequest or otherwise, as an addition to the Trust Fund',
  'to hold property jointly or in common with any other person, including the {Trustee} in its personal capacity',
  'to permit any beneficiary to reside in, occupy or use any dwelling or chattel forming part of the Trust Fund, rent free or otherwise',
  'to acquire, hold and deal with digital assets, including cryptocurrency, and to appoint any custodian of them',
  'to vote in respect of any shares or units held, and to grant proxies for that purpose',
  'to grant options over any property forming part of the Trust Fund, and to exercise any option held',
  'to purchase any annuity or policy of life assurance, and to pay the premiums out of income or capital',
  'to make any election, choice or application available under any law relating to taxation',
  'to register, protect, license and deal with any patent, trade mark, copyright or other intellectual property',
  'to carry on the business of primary production, including grazing, cropping, viticulture and dairying',
  'to release, abandon or extend time for payment of any debt owing to the {Trust}',
  'to distribute any property in specie, and to determine the value of property so distributed',
  'to appropriate any asset of the Trust Fund in or towards satisfaction of the interest of any beneficiary',
  'to employ and pay any agent, attorney, manager, accountant or solicitor to transact any business of the {Trust}',
  'to pay out of the Trust Fund all costs, charges and expenses incidental to the management of the {Trust}',
  'to do all such other acts and things as the {Trustee} considers incidental or conducive to the exercise of any of its powers',
];

function itemLabel(index: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return index < 26 ? `(${letters[index]})` : `(${letters[index - 26]!.repeat(2)})`;
}

/** `count` powers as items (a), (b) … (aa), each ending with a semicolon and the last with a full stop. */
export function powerItems(powers: string[], terms: Terms): Array<{ label: string; text: string }> {
  return powers.map((power, i) => ({ label: itemLabel(i), text: `${fillTerms(power, terms)}${i === powers.length - 1 ? '.' : ';'}` }));
}
