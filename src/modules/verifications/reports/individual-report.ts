// The individual report (proof of identity): who the person proved to be, every check and its result, the
// AML outcome, the attempts with their times, and an operator's decision when there was one. When nothing
// is verified yet, it says why instead of printing an empty identity.
import type { Layout } from './pdf-layout.ts';
import { renderPdf } from './pdf-layout.ts';
import { colours, type Tone } from './pdf-style.ts';
import { countryName, formatDate, formatTime, words } from './report-format.ts';
import type { IndividualReportModel } from './report-model.ts';
import {
  attemptStatus,
  checkResult,
  decisionRecordWords,
  decisionWords,
  documentWords,
  individualStatus,
  modeWords,
  registerDateOfBirthWarning,
  registerNameWarning,
  risk,
  roleWords,
} from './report-words.ts';

function amlSaid(model: IndividualReportModel): { title: string; body: string; tone: Tone } {
  const { aml } = model;
  if (aml.outcome === 'CLEAR') return { title: 'AML screening: clear', body: 'Clear: no sanctions or politically exposed persons list entry matches this person.', tone: 'good' };
  if (aml.outcome === 'NOT_RUN') return { title: 'AML screening: not run', body: 'Not run yet: the person’s details have not been checked.', tone: 'neutral' };
  const entries = aml.matchCount === 1 ? '1 list entry' : `${aml.matchCount} list entries`;
  return {
    title: `AML screening: possible matches (${aml.matchCount})`,
    body: `Possible match: ${entries} may be this person. PVS never passes a possible match automatically: an operator compares the entries with the person and decides.`,
    tone: 'bad',
  };
}

function fullName(model: IndividualReportModel): string {
  const { identity, individual } = model;
  if (identity) return [identity.firstName, identity.middleName, identity.lastName].filter(Boolean).join(' ');
  return individual.name ?? individual.registerName ?? 'Name not yet provided';
}

function summary(layout: Layout, model: IndividualReportModel): void {
  const { individual, identity, request } = model;
  const status = individualStatus(individual.status);
  const riskSaid = risk(individual.riskLevel);
  const rows: Array<[string, string]> = [
    ['Outcome', `${status.words}${individual.completedAt ? `, ${formatTime(individual.completedAt)}` : ''}`],
    ['AML screening', amlSaid(model).body],
    ['Identity', identity ? `${documentWords[identity.document.type] ?? words(identity.document.type)} checked on attempt ${identity.attempt}, ${formatTime(identity.verifiedAt)}` : (model.identityNote ?? 'Nothing verified yet.')],
    ['Attempts used', `${individual.attemptCount} of ${individual.maxAttempts}`],
  ];
  const register: Array<[string, string]> = [];
  if (individual.registerName) register.push(['On the register as', `${individual.registerName}${individual.registerNameMatches === false ? ' (not the verified name)' : ''}`]);
  if (individual.registerDateOfBirthMatches === false) register.push(['Date of birth on the register', `${formatDate(individual.registerDateOfBirth)} (not the date of birth entered)`]);
  rows.splice(1, 0, ...register);
  if (individual.decision) rows.push(['Manual decision', `${decisionWords(individual.decision, formatTime(individual.decision.decidedAt))}`]);
  layout.summaryBox({
    headline: fullName(model),
    subline: roleWords(individual, request.entityName),
    badges: [
      { label: status.words, tone: status.tone },
      { label: riskSaid.words, tone: riskSaid.tone },
    ],
    rows,
  });
}

function identitySection(layout: Layout, model: IndividualReportModel): void {
  const { identity, individual } = model;
  const verified = individual.status === 'PASSED' || individual.status === 'MANUALLY_PASSED';
  layout.heading(verified || !identity ? 'Verified identity' : 'Identity given (not verified)');
  if (!identity) {
    layout.note(model.identityNote ?? 'There is no verified identity to print.', 'neutral', 'No verified identity yet');
    return;
  }
  if (!verified) layout.note(`The person gave these details, but they are not verified: the outcome is “${individualStatus(individual.status).words.toLowerCase()}”.`, 'warn');
  if (individual.registerNameMatches === false) {
    const warning = registerNameWarning(individual.name!, individual.registerName!);
    layout.note(warning.body, 'warn', warning.title);
  }
  const bornDiffers = individual.registerDateOfBirthMatches === false;
  if (bornDiffers) {
    const warning = registerDateOfBirthWarning(identity.dateOfBirth, individual.registerDateOfBirth!);
    layout.note(warning.body, 'warn', warning.title);
  }
  layout.text(`As the person entered them and the identity provider checked them on attempt ${identity.attempt}, ${formatTime(identity.verifiedAt)}.`, { size: 8.5, colour: colours.muted, gap: 6 });
  const { address, document } = identity;
  const person: Array<[string, string]> = [
    ['Given names', [identity.firstName, identity.middleName].filter(Boolean).join(' ')],
    ['Family name', identity.lastName],
    ['Date of birth', formatDate(identity.dateOfBirth)],
    // Beside the date entered, as the register's name is beside the verified one: only when they differ.
    ...(bornDiffers ? [['Date of birth on the register', `${formatDate(individual.registerDateOfBirth)}: not the date entered`] as [string, string]] : []),
    ['Residential address', [address.line1, address.line2, [address.locality, address.state, address.postcode].filter(Boolean).join(' '), countryName(address.country)].filter(Boolean).join('\n')],
  ];
  if (identity.email) person.push(['Email', identity.email]);
  if (identity.phone) person.push(['Phone', identity.phone]);
  layout.subheading('Person');
  layout.keyValues(person);
  layout.subheading('Identity document');
  layout.keyValues([
    ['Document', documentWords[document.type] ?? words(document.type)],
    ['Number', document.number],
    ['Issued by', [document.issuingState, countryName(document.issuingCountry)].filter(Boolean).join(', ')],
    ['Expires', document.expiryDate ? formatDate(document.expiryDate) : 'No expiry given'],
  ]);
}

function checksSection(layout: Layout, model: IndividualReportModel): void {
  layout.heading('Checks');
  if (model.checks.length === 0) {
    layout.text('No checks have run yet, AML screening among them: the person has not submitted their details.', { gap: 8 });
  } else {
    const aml = amlSaid(model);
    layout.note(aml.body, aml.tone, aml.title);
    layout.table(
      [
        { heading: 'Check', width: 1.6 },
        { heading: 'Result', width: 1.1 },
        { heading: 'What it found', width: 3.8 },
      ],
      model.checks.map((c) => {
        const result = checkResult(c.result);
        return [{ text: c.name, detail: c.checkType }, { text: result.words, badge: result.tone }, { text: c.message ?? '—', detail: c.code }];
      }),
      { shades: model.checks.map((c) => (c.checkType === 'AML' ? checkResult(c.result).tone : undefined)) },
    );
  }
  const { decision } = model.individual;
  if (decision) {
    layout.subheading('Manual decision');
    layout.note(decisionRecordWords, decision.decision === 'PASS' ? 'good' : 'bad', `${decisionWords(decision, formatTime(decision.decidedAt))}.`);
  }
}

function attemptsSection(layout: Layout, model: IndividualReportModel): void {
  layout.heading('Attempts');
  if (model.startedAt) layout.text(`The person first opened their link on ${formatTime(model.startedAt)}.`, { gap: 6 });
  if (model.attempts.length === 0) {
    layout.text('The person has not submitted their details yet.', { gap: 8 });
    return;
  }
  layout.table(
    [
      { heading: 'Attempt', width: 0.8 },
      { heading: 'Submitted', width: 1.6 },
      { heading: 'Checked', width: 1.6 },
      { heading: 'Result', width: 1.8 },
    ],
    model.attempts.map((a) => {
      const status = attemptStatus(a.status);
      return [String(a.number), formatTime(a.submittedAt), a.checkedAt ? formatTime(a.checkedAt) : 'Not yet', { text: status.words, badge: status.tone }];
    }),
  );
}

function contextSection(layout: Layout, model: IndividualReportModel): void {
  const { request, individual } = model;
  layout.heading('Request');
  const rows: Array<[string, string]> = [
    ['Verification request', request.verificationRequestId],
    ['Purpose', `${modeWords[request.mode]} (${request.mode})`],
  ];
  if (request.entityName) rows.push(['Entity', request.entityName]);
  rows.push(['Business lookup', request.lookupRequestId ?? 'None: the request was built by hand']);
  rows.push(['Individual', individual.individualId]);
  if (individual.externalId) rows.push(['Partner reference', individual.externalId]);
  rows.push(['Added', formatTime(individual.createdAt)]);
  layout.keyValues(rows);
  layout.heading('About this report');
  layout.text(
    `PVS prepared this report for ${model.header.partnerName}; it shows the person’s verification as it stood when the report was generated. ` +
      (model.identity
        ? 'The identity was checked by PVS’s identity verification provider (document, face and fraud checks) and screened against sanctions and politically exposed persons lists by PVS’s screening engine. It is read from the identity provider for this report only; PVS keeps no copy of the report. '
        : 'Nothing has been checked for this person yet: a person’s identity is checked by PVS’s identity verification provider and screened by PVS’s screening engine once they submit their details. ') +
      'It is not a credit or legal opinion.',
    { size: 8.5, colour: colours.muted },
  );
}

export function renderIndividualReport(model: IndividualReportModel): Promise<Buffer> {
  // The subject is generic: a PDF's metadata travels further than its pages (file indexes, previews).
  return renderPdf(model.header, 'Identity verification of an individual', (layout) => {
    summary(layout, model);
    identitySection(layout, model);
    checksSection(layout, model);
    attemptsSection(layout, model);
    contextSection(layout, model);
  });
}
