// The entity report (AUSTRAC customer due diligence): who the entity is on the registers, who owns it, and
// whether each of its people was verified. A hand-built request has no register data, and says so where
// the register data would be, so nobody filing it mistakes the partner's word for a register check.
import type { CardSpec } from './pdf-blocks.ts';
import type { Layout } from './pdf-layout.ts';
import { renderPdf } from './pdf-layout.ts';
import { colours, type Tone } from './pdf-style.ts';
import { ownershipSection } from './ownership-section.ts';
import { count, formatAbn, formatAcn, formatDate, formatTime, words } from './report-format.ts';
import type { EntityReportModel, ReportIndividual } from './report-model.ts';
import {
  decisionRecordWords,
  decisionWords,
  individualStatus,
  modeWords,
  outcomeGroup,
  registerDateOfBirthWarning,
  registerNameWarning,
  requestStatus,
  risk,
  roleWords,
  type OutcomeGroup,
} from './report-words.ts';

const outcomeTiles: Array<{ group: OutcomeGroup; label: string; tone: Tone }> = [
  { group: 'verified', label: 'Verified', tone: 'good' },
  { group: 'review', label: 'Needs review', tone: 'warn' },
  { group: 'failed', label: 'Failed', tone: 'bad' },
  { group: 'pending', label: 'Pending', tone: 'neutral' },
];

function entityNameOf(model: EntityReportModel): string {
  return model.registry?.abr?.entityName ?? model.registry?.asic?.name ?? model.request.entityName ?? 'Entity not named';
}

/** How many people, and how many under a name or a date of birth that is not the register's: the first thing to look at. */
function peopleLine(individuals: ReportIndividual[]): string {
  const names = individuals.filter((i) => i.registerNameMatches === false).length;
  const births = individuals.filter((i) => i.registerDateOfBirthMatches === false).length;
  const differences = [
    names ? count(names, 'verified name differs', 'verified names differ') : null,
    births ? count(births, 'date of birth differs', 'dates of birth differ') : null,
  ].filter(Boolean);
  const people = `${count(individuals.length, 'person', 'people')} to verify`;
  return differences.length === 0 ? people : `${people}; ${differences.join(' and ')} from the register’s (see Individuals)`;
}

function summary(layout: Layout, model: EntityReportModel): void {
  const { request, registry, ownership, individuals } = model;
  const numbers = [registry?.abr ? `ABN ${formatAbn(registry.abr.abn)}` : null, registry?.asic ? `ACN ${formatAcn(registry.asic.acn)}` : null].filter(Boolean).join(' · ');
  const groups = individuals.map((i) => outcomeGroup(i.status));
  const ownershipLine = ownership
    ? `${ownership.completeness === 'HIGH' ? 'Complete' : ownership.completeness === 'PARTIAL' ? 'Partial' : 'Unknown'}: ${count(ownership.beneficialOwners.length, 'beneficial owner', 'beneficial owners')} found`
    : registry
      ? 'Not traced: the lookup’s scope had no ownership report'
      : 'Not traced: the request was built by hand';
  const riskSaid = risk(request.riskLevel);
  layout.summaryBox({
    headline: entityNameOf(model),
    subline: numbers || 'No ABN or ACN: not checked against the registers',
    badges: [{ label: riskSaid.words, tone: riskSaid.tone }],
    stats: outcomeTiles.map(({ group, label, tone }) => {
      const n = groups.filter((g) => g === group).length;
      return { label, value: String(n), tone: n > 0 ? tone : 'neutral' };
    }),
    rows: [
      ['Request', `${requestStatus(request.status)} · ${modeWords[request.mode]}`],
      ['People', peopleLine(individuals)],
      ['Ownership', ownershipLine],
      ['Register data', registry ? `As the registers answered on ${formatTime(registry.retrievedAt)}` : 'Unavailable: built by hand, not from a business lookup'],
      ['Created', formatTime(request.createdAt)],
      ['Completed', request.completedAt ? formatTime(request.completedAt) : 'Not yet'],
    ],
  });
}

function registrySection(layout: Layout, model: EntityReportModel): void {
  layout.heading('Registry identity');
  const { registry } = model;
  if (!registry) {
    layout.note(
      'This request was built by hand, not from a business lookup, so PVS has not checked the entity against the Australian Business Register (ABR) or ASIC. The entity name shown is the one the partner gave.',
      'warn',
      'Register data is unavailable',
    );
    return;
  }
  const { abr, asic } = registry;
  const lookup = model.request.lookupRequestId ? `, for business lookup ${model.request.lookupRequestId}` : '';
  layout.text(`As the registers answered on ${formatTime(registry.retrievedAt)}${lookup}. PVS has not read them again for this report.`, { size: 8.5, colour: colours.muted, gap: 6 });
  layout.subheading('Australian Business Register (ABR)');
  if (abr) {
    layout.keyValues([
      ['ABN', formatAbn(abr.abn)],
      ['Entity name', abr.entityName],
      ['Entity type', abr.entityType],
      ['ABN status', `${abr.status}${abr.statusFrom ? ` since ${formatDate(abr.statusFrom)}` : ''}`],
      ['GST', abr.gstRegisteredFrom ? `Registered from ${formatDate(abr.gstRegisteredFrom)}` : 'Not registered'],
      ['Business names', abr.businessNames.length ? abr.businessNames.join('\n') : 'None'],
      ['Main business location', [abr.state, abr.postcode].filter(Boolean).join(' ') || '—'],
    ]);
  } else {
    layout.text('The lookup holds no ABR record for this entity.', { gap: 8 });
  }
  layout.subheading('ASIC company register');
  if (asic) {
    const rows: Array<[string, string]> = [
      ['ACN', formatAcn(asic.acn)],
      ['Company name', asic.name],
      ['Type and class', [asic.type, asic.class].filter(Boolean).join(', ') || '—'],
      ['ASIC status', asic.status],
      ['Registered', formatDate(asic.registeredOn)],
    ];
    if (asic.deregisteredOn) rows.push(['Deregistered', formatDate(asic.deregisteredOn)]);
    layout.keyValues(rows);
  } else {
    layout.text('The lookup holds no ASIC company record: an entity that is not a company (a trust, a partnership, a sole trader) has none.', { gap: 8 });
  }
}

function insetsOf(individual: ReportIndividual): CardSpec['insets'] {
  const insets: NonNullable<CardSpec['insets']> = [];
  if (individual.registerNameMatches === false) insets.push({ ...registerNameWarning(individual.name!, individual.registerName!), tone: 'warn' });
  if (individual.registerDateOfBirthMatches === false) insets.push({ ...registerDateOfBirthWarning(individual.dateOfBirth!, individual.registerDateOfBirth!), tone: 'warn' });
  const { decision } = individual;
  if (decision) {
    insets.push({ title: `${decisionWords(decision, formatTime(decision.decidedAt))}.`, body: decisionRecordWords, tone: decision.decision === 'PASS' ? 'good' : 'bad' });
  } else if (individual.manualOverride) {
    insets.push({ title: 'Decided by a PVS operator.', body: 'The decision’s record was not available for this report.', tone: 'neutral' });
  }
  return insets;
}

/** The role, and the register's name for the party while the person has not verified theirs or when it differs. */
function subtitleOf(individual: ReportIndividual): string {
  const role = roleWords(individual);
  return individual.registerName && individual.name ? `${role} · On the register as ${individual.registerName}` : role;
}

function individualsSection(layout: Layout, model: EntityReportModel): void {
  layout.heading('Individuals');
  if (model.individuals.length === 0) {
    layout.text('No people are on this request yet.');
    return;
  }
  for (const individual of model.individuals) {
    const status = individualStatus(individual.status);
    const riskSaid = risk(individual.riskLevel);
    layout.card({
      title: individual.name ?? individual.registerName ?? 'Not yet provided',
      placeholder: individual.name === null,
      badge: { label: status.words, tone: status.tone },
      subtitle: subtitleOf(individual),
      fields: [
        ['RISK', riskSaid.words],
        ['ATTEMPTS USED', `${individual.attemptCount} of ${individual.maxAttempts}`],
        ['ADDED', formatTime(individual.createdAt)],
        ['COMPLETED', individual.completedAt ? formatTime(individual.completedAt) : 'Not yet'],
      ],
      footnote: `Individual ${individual.individualId}${individual.externalId ? ` · Partner reference ${individual.externalId}` : ''}`,
      insets: insetsOf(individual),
    });
  }
}

function issuesSection(layout: Layout, model: EntityReportModel): void {
  if (model.request.issues.length === 0) return;
  // A person is named, and told apart by a reference when there is no name yet.
  const people = new Map(model.individuals.map((i) => [i.individualId, { text: i.name ?? 'Not yet provided', detail: i.externalId ? `Partner reference ${i.externalId}` : i.individualId }]));
  layout.heading('Issues');
  layout.table(
    [
      { heading: 'Issue', width: 2.1 },
      { heading: 'Person', width: 1.7 },
      { heading: 'What it means', width: 3.2 },
    ],
    model.request.issues.map((issue) => [
      { text: words(issue.code), detail: issue.code },
      issue.individualId ? (people.get(issue.individualId) ?? issue.individualId) : 'The whole request',
      issue.message,
    ]),
    { bars: model.request.issues.map(() => 'warn' as const) },
  );
}

function aboutSection(layout: Layout, model: EntityReportModel): void {
  const { request, registry } = model;
  layout.heading('About this report');
  const source = request.lookupRequestId ? ` and business lookup ${request.lookupRequestId}` : '';
  const paragraphs = [
    `PVS prepared this report for ${model.header.partnerName} from verification request ${request.verificationRequestId}${source}, created ${formatTime(request.createdAt)}. It shows the request as it stood when the report was generated.`,
    registry
      ? `Register data and the ownership structure are as the ABR and ASIC answered on ${formatTime(registry.retrievedAt)}; they were not read again for this report, and later changes on the registers are not in it.`
      : 'Register data is not in this report: the request was built by hand, and PVS has not checked the entity or its ownership against the registers.',
    'Each person’s identity was checked by PVS’s identity verification provider (document, face and fraud checks), and screened against sanctions and politically exposed persons lists by PVS’s screening engine. Names are read from the identity provider for this report only; PVS keeps no copy of the report.',
    'This report records those checks for the partner’s customer due diligence file. It is not a credit or legal opinion, and it does not replace the partner’s own assessment of money laundering and terrorism financing risk.',
  ];
  for (const paragraph of paragraphs) layout.text(paragraph, { size: 8.5, colour: colours.muted, gap: 5 });
}

export function renderEntityReport(model: EntityReportModel): Promise<Buffer> {
  return renderPdf(model.header, `Customer due diligence for ${entityNameOf(model)}`, (layout) => {
    summary(layout, model);
    registrySection(layout, model);
    ownershipSection(layout, model);
    individualsSection(layout, model);
    issuesSection(layout, model);
    aboutSection(layout, model);
  });
}
