// Report models for the renderers' tests, the sample script and the bench: each function builds a fresh
// model, so a test may change what it is given. Names in several Latin scripts, so the reports are seen
// to print them as entered. Every time is fixed: the same model renders to the same bytes.
import type { EntityReportModel, IndividualReportModel, ReportCheck, ReportHeader, ReportIndividual, ReportOwnership, ReportRegistry } from '../../src/modules/verifications/reports/report-model.ts';

export const reportGeneratedAt = new Date('2026-11-24T03:14:07.000Z');
export const requestId = 'ver_01KAXR7Q2M5D8G3H6J9K1N4P7S';
export const lookupId = 'lkp_01KAXR5B8C2D4E6F8G0H2J4K6M';
export const operatorId = 'opr_01KAXQZ3V6W9X2Y5Z8A1B4C7D0';

export const names = {
  direct: 'Søren Ærøe',
  holderA: 'Zoë Ñúñez-Łukasiewicz',
  holderB: 'Nguyễn Thị Minh Khai',
  director: 'Şule Çağlar',
} as const;

const at = (iso: string) => new Date(iso);

function header(title: string): ReportHeader {
  return { title, verificationRequestId: requestId, generatedAt: reportGeneratedAt, partnerName: 'Ledger & Co Tax Advisers' };
}

let sequence = 0;
/** An individual with unique ids; `overrides` says what matters to the test. */
export function reportIndividual(overrides: Partial<ReportIndividual> = {}): ReportIndividual {
  sequence++;
  return {
    individualId: `ind_01KAXR7R${String(sequence).padStart(4, '0')}ABCDEFGHJKMNPQ`,
    externalId: `client-${sequence}`,
    role: 'UBO',
    roleDescription: null,
    name: null,
    registerName: null,
    registerNameMatches: null,
    dateOfBirth: null,
    registerDateOfBirth: null,
    registerDateOfBirthMatches: null,
    status: 'PENDING',
    riskLevel: 'UNKNOWN',
    attemptCount: 0,
    maxAttempts: 3,
    createdAt: at('2026-11-20T22:05:00Z'),
    completedAt: null,
    manualOverride: false,
    decision: null,
    ...overrides,
  };
}

/** A lookup-bound individual whose verified name is the register's. */
const onRegister = (registerName: string) => ({ registerName, registerNameMatches: true });

const passed = (name: string, completedAt: string, overrides: Partial<ReportIndividual> = {}) =>
  reportIndividual({ name, status: 'PASSED', riskLevel: 'LOW', attemptCount: 1, completedAt: at(completedAt), ...overrides });

export function wattleCreekRegistry(): ReportRegistry {
  return {
    retrievedAt: at('2026-11-20T21:58:31Z'),
    abr: {
      abn: '54222222228',
      status: 'Active',
      statusFrom: '2009-11-02',
      entityName: 'WATTLE CREEK LOGISTICS PTY LTD',
      entityType: 'Australian Private Company',
      gstRegisteredFrom: '2009-12-01',
      businessNames: ['Wattle Creek Freight', 'Wattle Creek Cold Chain'],
      state: 'VIC',
      postcode: '3029',
    },
    asic: { acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'Australian Proprietary Company', class: 'Limited by Shares', status: 'Registered', registeredOn: '2009-11-02', deregisteredOn: null },
  };
}

/** The entity 40 % held by a person and 60 % by a holding company (ACN 333 333 332) owned 50/50 by two people. */
export function twoLevelOwnership(): ReportOwnership {
  return {
    structureAsOf: at('2026-11-20T21:58:31Z'),
    ownershipSource: 'AVAILABLE',
    completeness: 'HIGH',
    reason: 'COMPLETE',
    nodes: [
      { id: 'n1', kind: 'COMPANY', name: 'WATTLE CREEK LOGISTICS PTY LTD', acn: '222222228', abn: '54222222228' },
      { id: 'n2', kind: 'PERSON', name: names.direct, acn: null, abn: null },
      { id: 'n3', kind: 'COMPANY', name: 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', acn: '333333332', abn: null },
      { id: 'n4', kind: 'PERSON', name: names.holderA, acn: null, abn: null },
      { id: 'n5', kind: 'PERSON', name: names.holderB, acn: null, abn: null },
    ],
    edges: [
      { ownerId: 'n2', ownedId: 'n1', percent: 40 },
      { ownerId: 'n3', ownedId: 'n1', percent: 60 },
      { ownerId: 'n4', ownedId: 'n3', percent: 50 },
      { ownerId: 'n5', ownedId: 'n3', percent: 50 },
    ],
    beneficialOwners: [
      { nodeId: 'n2', name: names.direct, ownershipPercent: 40 },
      { nodeId: 'n4', name: names.holderA, ownershipPercent: 30 },
      { nodeId: 'n5', name: names.holderB, ownershipPercent: 30 },
    ],
    blockedNodes: [],
    unlinkedOwners: [],
  };
}

/** A lookup-bound AUSTRAC_CDD request: three owners verified (one by an operator's decision), a director in review. */
export function lookupBoundEntityModel(): EntityReportModel {
  return {
    header: header('Entity due diligence report'),
    request: {
      verificationRequestId: requestId,
      mode: 'AUSTRAC_CDD',
      status: 'VERIFICATIONS_SENT',
      riskLevel: 'MEDIUM',
      entityName: 'WATTLE CREEK LOGISTICS PTY LTD',
      lookupRequestId: lookupId,
      createdAt: at('2026-11-20T22:04:12Z'),
      completedAt: null,
      issues: [],
    },
    registry: wattleCreekRegistry(),
    ownership: twoLevelOwnership(),
    individuals: [
      passed(names.direct, '2026-11-21T01:12:00Z', { roleDescription: 'Shareholder (40 %)', externalId: 'WCL-UBO-1', ...onRegister('Soren AEROE') }),
      passed(names.holderA, '2026-11-21T04:40:00Z', { roleDescription: 'Through Fairbairn Merriweather Holdings', attemptCount: 2, riskLevel: 'LOW', ...onRegister('Zoe NUNEZ-LUKASIEWICZ') }),
      reportIndividual({
        name: names.holderB,
        ...onRegister('Thi Minh Khai NGUYEN'),
        role: 'UBO',
        roleDescription: 'Through Fairbairn Merriweather Holdings',
        status: 'MANUALLY_PASSED',
        riskLevel: 'MEDIUM',
        attemptCount: 1,
        completedAt: at('2026-11-22T23:31:00Z'),
        manualOverride: true,
        decision: {
          decision: 'PASS',
          decidedBy: operatorId,
          decidedAt: at('2026-11-22T23:31:00Z'),
        },
      }),
      reportIndividual({ name: names.director, role: 'DIRECTOR', roleDescription: 'Director since 2014', status: 'MANUAL_REVIEW', riskLevel: 'HIGH', attemptCount: 1, registerName: 'Sule DEMIR', registerNameMatches: false }),
      reportIndividual({ role: 'SECRETARY', registerName: 'Margaret Anne FAIRBAIRN' }),
    ],
  };
}

/** A hand-built request: the partner named the entity and its people; there is no register data or ownership. */
export function handBuiltEntityModel(): EntityReportModel {
  return {
    header: header('Entity due diligence report'),
    request: {
      verificationRequestId: requestId,
      mode: 'AUSTRAC_CDD',
      status: 'VERIFICATIONS_SENT',
      riskLevel: 'LOW',
      entityName: 'Hand Built Pty Ltd',
      lookupRequestId: null,
      createdAt: at('2026-11-23T06:00:00Z'),
      completedAt: null,
      issues: [],
    },
    registry: null,
    ownership: null,
    individuals: [passed(names.director, '2026-11-23T07:45:00Z', { role: 'DIRECTOR' }), reportIndividual({ role: 'TRUSTEE', roleDescription: 'Trustee of the Çağlar Family Trust' })],
  };
}

const longRoles = ['Director and company secretary since incorporation; also signs the trust deed as appointor', null, 'Protector of the family trust', null];

/** Ten people in every state, with issues: a report that runs over several pages. */
export function tenIndividualEntityModel(): EntityReportModel {
  const model = lookupBoundEntityModel();
  const people: ReportIndividual[] = [
    passed('Margaret Anne Featherstonehaugh-Cholmondeley', '2026-11-21T02:00:00Z', { role: 'DIRECTOR', roleDescription: longRoles[0]! }),
    passed(names.direct, '2026-11-21T01:12:00Z'),
    passed(names.holderA, '2026-11-21T04:40:00Z', { attemptCount: 2 }),
    model.individuals[2]!,
    reportIndividual({ name: names.director, role: 'DIRECTOR', status: 'MANUAL_REVIEW', riskLevel: 'HIGH', attemptCount: 1 }),
    reportIndividual({ name: 'Tomás Ó Briain', role: 'SECRETARY', status: 'FAILED', riskLevel: 'HIGH', attemptCount: 1, completedAt: at('2026-11-22T03:00:00Z') }),
    reportIndividual({ name: 'Ana-Lucía Gutiérrez', role: 'BENEFICIARY', status: 'LOCKED_OUT', riskLevel: 'HIGH', attemptCount: 3, completedAt: at('2026-11-22T05:10:00Z') }),
    reportIndividual({ role: 'PROTECTOR_GUARDIAN', roleDescription: longRoles[2]!, status: 'IN_PROGRESS', attemptCount: 1 }),
    reportIndividual({ role: 'TRUSTEE', externalId: null }),
    reportIndividual({ name: 'Björn Åström', role: 'OTHER', roleDescription: 'Power of attorney for a shareholder', status: 'MANUAL_REVIEW', riskLevel: 'MEDIUM', attemptCount: 2 }),
  ];
  model.individuals = people;
  model.request.riskLevel = 'HIGH';
  model.request.issues = [
    { individualId: people[7]!.individualId, code: 'IDENTITY_CHECKS_DELAYED', message: 'The identity checks for this person are delayed: the identity provider is not answering. PVS keeps trying.' },
    { code: 'OWNERSHIP_PARTIAL', message: 'A holder of 12 % could not be linked to a person on the registers.' },
  ];
  return model;
}

/** Ownership that could not be traced all the way: a trust, an unlinked holder, and a loop through two companies. */
export function partialOwnershipEntityModel(): EntityReportModel {
  const model = lookupBoundEntityModel();
  model.request.entityName = 'CORELLA CONSTRUCTIONS PTY LTD';
  model.registry = {
    retrievedAt: at('2026-11-20T21:58:31Z'),
    abr: { abn: '11444444446', status: 'Active', statusFrom: '2016-05-09', entityName: 'CORELLA CONSTRUCTIONS PTY LTD', entityType: 'Australian Private Company', gstRegisteredFrom: null, businessNames: [], state: 'QLD', postcode: '4350' },
    asic: { acn: '444444446', name: 'CORELLA CONSTRUCTIONS PTY LTD', type: 'Australian Proprietary Company', class: 'Limited by Shares', status: 'Registered', registeredOn: '2016-05-09', deregisteredOn: null },
  };
  model.ownership = {
    structureAsOf: at('2026-11-20T21:58:31Z'),
    ownershipSource: 'AVAILABLE',
    completeness: 'PARTIAL',
    reason: 'BLOCKED_NODES',
    nodes: [
      { id: 'n1', kind: 'COMPANY', name: 'CORELLA CONSTRUCTIONS PTY LTD', acn: '444444446', abn: '11444444446' },
      { id: 'n2', kind: 'PERSON', name: 'Lachlan Peter BRADSHAW', acn: null, abn: null },
      { id: 'n3', kind: 'TRUST', name: 'ASHCOMBE NOMINEES PTY LTD ATF THE BRADSHAW FAMILY TRUST', acn: null, abn: null },
      { id: 'n4', kind: 'COMPANY', name: 'RIVERGUM INVESTMENTS PTY LTD', acn: '555555550', abn: null },
      { id: 'n5', kind: 'COMPANY', name: 'IRONBARK NOMINEES PTY LTD', acn: '666666664', abn: null },
      { id: 'n6', kind: 'PERSON', name: names.holderA, acn: null, abn: null },
    ],
    edges: [
      { ownerId: 'n2', ownedId: 'n1', percent: 38 },
      { ownerId: 'n3', ownedId: 'n1', percent: 30 },
      { ownerId: 'n4', ownedId: 'n1', percent: 20 },
      // Rivergum and Ironbark hold each other: the tree must stop, not loop.
      { ownerId: 'n5', ownedId: 'n4', percent: 66.667 },
      { ownerId: 'n4', ownedId: 'n5', percent: 10 },
      { ownerId: 'n6', ownedId: 'n4', percent: 33.333 },
      { ownerId: 'n6', ownedId: 'n5', percent: 90 },
    ],
    beneficialOwners: [{ nodeId: 'n2', name: 'Lachlan Peter BRADSHAW', ownershipPercent: 38 }],
    blockedNodes: [{ nodeId: 'n3', kind: 'TRUST', name: 'ASHCOMBE NOMINEES PTY LTD ATF THE BRADSHAW FAMILY TRUST', ownershipPercent: 30 }],
    unlinkedOwners: [{ name: 'M. R. ABERNATHY', ownedId: 'n1', percent: 12 }],
  };
  return model;
}

/** The longest text the API takes in each field, a wide structure and many long issues: the layout's worst case. */
export function stressEntityModel(): EntityReportModel {
  const model = tenIndividualEntityModel();
  const long = (words: string, length: number) => words.repeat(Math.ceil(length / words.length)).slice(0, length).trim();
  model.header.partnerName = long('Featherstonehaugh Cholmondeley Chartered Accountants & Tax Agents ', 200);
  model.request.entityName = long('THE TRUSTEE FOR THE WOLLONGONG ILLAWARRA SOUTH COAST INVESTMENT ', 200);
  model.registry!.abr!.entityName = model.request.entityName;
  model.registry!.abr!.businessNames = Array.from({ length: 8 }, (_, i) => `Wattle Creek Regional Freight and Cold Chain Logistics Division ${i + 1}`);
  model.individuals[0]!.name = long('Maximiliana Wilhelmina Featherstonehaugh-Cholmondeley ', 100);
  model.individuals[0]!.roleDescription = long('Director, company secretary and appointor of the family trust; ', 200);
  const ownership = model.ownership!;
  for (let i = 0; i < 24; i++) {
    ownership.nodes.push({ id: `n${10 + i}`, kind: i % 3 === 0 ? 'COMPANY' : 'PERSON', name: i % 3 === 0 ? `${long('SOUTHERN HIGHLANDS AGRICULTURAL HOLDINGS ', 80)} NO. ${i} PTY LTD` : `Shareholder Number ${i} Ñúñez`, acn: i % 3 === 0 ? '555555550' : null, abn: i % 3 === 0 ? '11444444446' : null });
    ownership.edges.push({ ownerId: `n${10 + i}`, ownedId: i % 3 === 0 || i < 3 ? 'n3' : `n${10 + i - (i % 3)}`, percent: 1.25 });
  }
  model.request.issues = Array.from({ length: 12 }, (_, i) => ({ individualId: model.individuals[i % 10]!.individualId, code: 'IDENTITY_CHECKS_UNAVAILABLE', message: long('The identity checks could not run: the identity provider did not answer for three hours. The person can submit again. ', 300) }));
  return model;
}

const checks = {
  document: { name: 'Document authenticity', checkType: 'DOCUMENT', result: 'PASS', code: 'DOCUMENT_AUTHENTIC', message: 'The passport’s security features and layout are those of a genuine document.' },
  record: { name: 'Document issuer record', checkType: 'DOCUMENT', result: 'PASS', code: 'DOCUMENT_RECORD_MATCHED', message: 'The issuer’s record matches the name, date of birth and number on the document.' },
  face: { name: 'Face match', checkType: 'FACE_MATCH', result: 'PASS', code: 'FACE_MATCH_SCORE_HIGH', message: 'The selfie matches the photo on the passport (score 0.96, pass mark 0.80).' },
  fraud: { name: 'Fraud signals', checkType: 'FRAUD', result: 'PASS', code: 'NO_FRAUD_SIGNALS', message: 'No fraud signals were found.' },
  amlClear: { name: 'AML screening', checkType: 'AML', result: 'PASS', code: 'AML_CLEAR', message: 'No sanctions or politically exposed persons list entry matches.' },
} satisfies Record<string, ReportCheck>;

/** A person who passed every check on the first attempt. */
export function passedIndividualModel(): IndividualReportModel {
  const individual = passed(names.holderA, '2026-11-21T04:40:00Z', { roleDescription: 'Through Fairbairn Merriweather Holdings', attemptCount: 2, externalId: 'WCL-UBO-2', ...onRegister('Zoe NUNEZ-LUKASIEWICZ') });
  return {
    header: header('Individual verification report'),
    request: { verificationRequestId: requestId, mode: 'AUSTRAC_CDD', entityName: 'WATTLE CREEK LOGISTICS PTY LTD', lookupRequestId: lookupId },
    individual,
    identity: {
      firstName: 'Zoë',
      middleName: 'Inés',
      lastName: 'Ñúñez-Łukasiewicz',
      dateOfBirth: '1961-03-14',
      address: { line1: 'Unit 4, 48 Banksia Parade', line2: 'Rear entrance off Wattle Lane', locality: 'Brunswick East', state: 'VIC', postcode: '3057', country: 'AU' },
      email: 'zoe.nunez@example.com.au',
      phone: '+61 412 345 678',
      document: { type: 'PASSPORT', number: 'PA1234567', issuingCountry: 'AUS', issuingState: null, expiryDate: '2031-06-30' },
      verifiedAt: at('2026-11-21T04:39:40Z'),
      attempt: 2,
    },
    identityNote: null,
    checks: [checks.document, checks.record, checks.face, checks.fraud, checks.amlClear],
    aml: { outcome: 'CLEAR', matchCount: 0 },
    attempts: [
      { number: 1, status: 'RETRY', submittedAt: at('2026-11-21T04:02:10Z'), checkedAt: at('2026-11-21T04:02:55Z') },
      { number: 2, status: 'PASSED', submittedAt: at('2026-11-21T04:38:01Z'), checkedAt: at('2026-11-21T04:39:40Z') },
    ],
    startedAt: at('2026-11-21T03:58:00Z'),
  };
}

/** A person whose screening found possible matches: waiting for an operator. */
export function reviewIndividualModel(): IndividualReportModel {
  const model = passedIndividualModel();
  model.individual = reportIndividual({ name: 'Nguyễn Thị Minh Khai', role: 'DIRECTOR', roleDescription: 'Director since 2014', status: 'MANUAL_REVIEW', riskLevel: 'HIGH', attemptCount: 1 });
  model.identity = {
    firstName: 'Thị Minh Khai',
    middleName: null,
    lastName: 'Nguyễn',
    dateOfBirth: '1978-09-02',
    address: { line1: '17 Quảng Street', line2: null, locality: 'Cabramatta', state: 'NSW', postcode: '2166', country: 'AU' },
    email: null,
    phone: null,
    document: { type: 'DRIVER_LICENCE', number: '12345678', issuingCountry: 'AUS', issuingState: 'NSW', expiryDate: '2028-02-11' },
    verifiedAt: at('2026-11-22T10:15:00Z'),
    attempt: 1,
  };
  model.checks = [
    checks.document,
    checks.record,
    { name: 'Face match', checkType: 'FACE_MATCH', result: 'REVIEW', code: 'FACE_MATCH_INCONCLUSIVE', message: 'The selfie could not be compared reliably with the licence photo (score 0.71, pass mark 0.80).' },
    checks.fraud,
    { name: 'AML screening', checkType: 'AML', result: 'REVIEW', code: 'AML_POSSIBLE_MATCH', message: 'Two list entries may be this person: an operator decides.' },
  ];
  model.aml = { outcome: 'POSSIBLE_MATCH', matchCount: 2 };
  model.attempts = [{ number: 1, status: 'MANUAL_REVIEW', submittedAt: at('2026-11-22T10:13:30Z'), checkedAt: at('2026-11-22T10:15:00Z') }];
  return model;
}

/** The register's director (decision 122): the name is the register's, the date of birth entered is not. */
const bornElsewhere = { dateOfBirth: '1980-03-02', registerDateOfBirth: '1979-07-14', registerDateOfBirthMatches: false } as const;

const dateOfBirthCheck = {
  name: 'Date of birth against the register',
  checkType: 'REGISTER_DATE_OF_BIRTH',
  result: 'REVIEW',
  code: 'REGISTER_DATE_OF_BIRTH_DIFFERS',
  message: 'The date of birth entered is not the one the register holds for this party: the register is wrong, or someone other than the party completed the link. An operator compares the two dates.',
};

/** A lookup-bound director whose every check passed but whose date of birth is not the register's: in review. */
export function dateOfBirthDiffersIndividualModel(): IndividualReportModel {
  const model = passedIndividualModel();
  model.individual = reportIndividual({
    name: 'Oliver James Kingsley',
    ...onRegister('Oliver James KINGSLEY'),
    ...bornElsewhere,
    role: 'DIRECTOR',
    roleDescription: 'SECRETARY',
    status: 'MANUAL_REVIEW',
    riskLevel: 'MEDIUM',
    attemptCount: 1,
  });
  model.identity = { ...model.identity!, firstName: 'Oliver', middleName: 'James', lastName: 'Kingsley', dateOfBirth: bornElsewhere.dateOfBirth, attempt: 1 };
  model.checks = [checks.document, checks.record, checks.face, checks.fraud, dateOfBirthCheck, checks.amlClear];
  model.attempts = [{ number: 1, status: 'MANUAL_REVIEW', submittedAt: at('2026-11-21T04:38:01Z'), checkedAt: at('2026-11-21T04:39:40Z') }];
  return model;
}

/** The lookup-bound request with its director's date of birth not the register's. */
export function dateOfBirthDiffersEntityModel(): EntityReportModel {
  const model = lookupBoundEntityModel();
  model.individuals = [
    ...model.individuals.slice(0, 4),
    reportIndividual({ name: 'Oliver James Kingsley', ...onRegister('Oliver James KINGSLEY'), ...bornElsewhere, role: 'DIRECTOR', roleDescription: 'SECRETARY', status: 'MANUAL_REVIEW', riskLevel: 'MEDIUM', attemptCount: 1 }),
  ];
  return model;
}

/** A person who has not given their details yet: nothing verified to print. */
export function pendingIndividualModel(): IndividualReportModel {
  return {
    header: header('Individual verification report'),
    request: { verificationRequestId: requestId, mode: 'TPB_POI', entityName: null, lookupRequestId: null },
    individual: reportIndividual({ role: 'OTHER', roleDescription: 'Registered tax agent (sole practitioner)' }),
    identity: null,
    identityNote: 'The person has not given their details yet.',
    checks: [],
    aml: { outcome: 'NOT_RUN', matchCount: 0 },
    attempts: [],
    startedAt: null,
  };
}

/** Every fixture by the file name the sample script gives it. */
export const reportSamples = {
  'entity-lookup-bound': { kind: 'entity', model: lookupBoundEntityModel },
  'entity-hand-built': { kind: 'entity', model: handBuiltEntityModel },
  'entity-ten-individuals': { kind: 'entity', model: tenIndividualEntityModel },
  'entity-partial-ownership': { kind: 'entity', model: partialOwnershipEntityModel },
  'entity-stress': { kind: 'entity', model: stressEntityModel },
  'individual-passed': { kind: 'individual', model: passedIndividualModel },
  'individual-review': { kind: 'individual', model: reviewIndividualModel },
  'individual-pending': { kind: 'individual', model: pendingIndividualModel },
  'entity-date-of-birth-differs': { kind: 'entity', model: dateOfBirthDiffersEntityModel },
  'individual-date-of-birth-differs': { kind: 'individual', model: dateOfBirthDiffersIndividualModel },
} as const;
