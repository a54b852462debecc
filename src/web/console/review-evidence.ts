// The evidence of one individual as an operator compares it: the document's images, who the person said
// they are, set against the register's record of the party a lookup-bound person stands for (name and
// date of birth, decision 122), the document and PVS's reading of its machine-readable zone, the face
// comparison, the provider's checks with its own results behind them (Onfido's reports and which
// sub-check said what), and the screening lists' possible matches. Rendered from answers
// fetched for this view only (evidence.service.ts); nothing here is stored or cached.
import type { AmlMatches, DocumentDetails } from '../../modules/verifications/evidence.schemas.ts';
import type { RegisterRecord } from '../../modules/verifications/evidence.service.ts';
import { sameRegisterDateOfBirth, sameRegisterName } from '../../modules/verifications/person-details.ts';
import { html, type Html } from '../html.ts';
import { badge, details, notice, section, table } from '../ui.ts';
import { cellOf, codeText } from './console-common.ts';

const imageLabels = { DOCUMENT_FRONT: 'Document, front', DOCUMENT_BACK: 'Document, back', SELFIE: 'Selfie' } as const;
const documentLabels = { PASSPORT: 'Passport', DRIVER_LICENCE: 'Driver licence', MEDICARE: 'Medicare card' } as const;

/** Why there is no evidence, said plainly: switched off, the provider down, or nothing to show yet. */
function unavailable(what: string, answer: { status: string; message: string | null }): Html {
  const lead = answer.status === 'UPSTREAM_UNAVAILABLE' ? `${what} cannot be shown right now.` : `There is no ${what.toLowerCase()} to show.`;
  return notice('error', html`<strong>${lead}</strong> ${answer.message ?? ''}`);
}

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

function images(answer: DocumentDetails): Html {
  if (answer.images.length === 0) return html`<p class="empty">The provider holds no images for this attempt.</p>`;
  return html`<div class="evidence-images">${answer.images.map(
    (image) => html`<figure><img src="data:${image.contentType};base64,${image.data}" alt="${imageLabels[image.kind]} as the person uploaded it">
<figcaption>${imageLabels[image.kind]} · ${image.contentType.replace('image/', '').toUpperCase()}, ${kilobytes(image.byteLength)}</figcaption></figure>`,
  )}</div>`;
}

type Claimed = NonNullable<DocumentDetails['claimedIdentity']>;

const fullName = (identity: Claimed) => [identity.firstName, identity.middleName, identity.lastName].filter(Boolean).join(' ');

function claimed(identity: Claimed, register: RegisterRecord): Html {
  const { address } = identity;
  const where = [address.line1, address.line2, address.locality, [address.state, address.postcode].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ');
  // A date of birth that is not the register's is set beside it here too, where the eye reads the date.
  const registerBorn = register.status === 'OK' && sameRegisterDateOfBirth(identity.dateOfBirth, register.dateOfBirth) === false ? register.dateOfBirth : null;
  return details([
    ['Name', fullName(identity)],
    ['Date of birth', registerBorn ? html`${identity.dateOfBirth} ${badge('MISMATCH')}<br><span class="muted">Register: ${registerBorn}</span>` : identity.dateOfBirth],
    ['Address', where],
    ['Email', identity.email],
    ['Phone', identity.phone],
  ]);
}

function machineReadableZone(mrz: DocumentDetails['documents'][number]['machineReadableZone']): Html {
  if (!mrz) return html`<p class="muted">Not a passport: there is no machine-readable zone to read.</p>`;
  if (!mrz.found) return html`<p>PVS could not find the machine-readable zone on the front image. That decides nothing: compare the image yourself.</p>`;
  return html`<p>The zone’s two lines as read:</p>
<p class="mono">${mrz.lines.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}</p>
${table({
  caption: 'Check digits, recomputed from what was read',
  columns: [
    { label: 'Field', cell: (c: { field: string; valid: boolean }) => cellOf(c.field) },
    { label: 'Check digit', cell: (c) => cellOf(badge(c.valid ? 'OK' : 'FAILED')) },
  ],
  rows: mrz.checkDigits,
  empty: 'No check digits were read.',
})}
${table({
  caption: 'The zone against what the person entered',
  columns: [
    { label: 'Field', cell: (c: { field: string; result: string }) => cellOf(c.field) },
    { label: 'Result', cell: (c) => cellOf(badge(c.result)) },
  ],
  rows: mrz.comparisons,
  empty: 'Nothing was compared.',
})}`;
}

function documents(answer: DocumentDetails): Html {
  return html`${answer.documents.map(
    (d) => html`${details([
      ['Type', documentLabels[d.type]],
      ['Number', html`<span class="mono">${d.number}</span>`],
      ['Issued by', [d.issuingCountry, d.issuingState].filter(Boolean).join(', ')],
      ['Card number', d.cardNumber],
      ['Expires', d.expiryDate],
    ])}
<h3>Machine-readable zone</h3>
${machineReadableZone(d.machineReadableZone)}`,
  )}`;
}

function faceAndChecks(answer: DocumentDetails): Html {
  return html`${table({
    caption: 'Face comparison: the selfie against the document’s photo',
    columns: [
      { label: 'Score', cell: (f: DocumentDetails['faceComparisons'][number]) => f.score.toFixed(2), numeric: true },
      { label: 'Pass mark', cell: (f) => f.threshold.toFixed(2), numeric: true },
      { label: 'Result', cell: (f) => cellOf(badge(f.result)) },
    ],
    rows: answer.faceComparisons,
    empty: 'The provider made no face comparison.',
  })}
${table({
  caption: 'The identity provider’s checks of this attempt',
  columns: [
    { label: 'Check', cell: (c: DocumentDetails['checks'][number]) => cellOf(c.name, codeText(c.code)) },
    { label: 'Result', cell: (c) => cellOf(badge(c.result)) },
    { label: 'Message', cell: (c) => cellOf(c.message) },
  ],
  rows: answer.checks,
  empty: 'The provider reported no checks.',
})}
${providerResults(answer)}`;
}

type ProviderReport = NonNullable<DocumentDetails['providerResults']>['reports'][number];

// The provider's words kept as they are (lower case, so never taken for PVS's own PASS or REVIEW), in the
// colours of the badges they correspond to; a word not known here is grey, and says itself.
const wordTones: Record<string, string> = { clear: 'good', consider: 'warn', caution: 'warn', unidentified: 'neutral', rejected: 'bad', suspected: 'bad' };

function verdict(word: string | null): Html {
  if (!word) return html`<span class="muted">—</span>`;
  return html`<span class="badge badge-${Object.hasOwn(wordTones, word) ? wordTones[word] : 'neutral'}">${word}</span>`;
}

/**
 * The sub-checks that were not clear (a group is left out when a sub-check inside it is listed: that one
 * says why), then how many others were clear.
 */
function notClear(report: ProviderReport): Html {
  const flagged = report.breakdown.filter((b) => b.result !== 'clear');
  const shown = flagged.filter((b) => !flagged.some((other) => other.item.startsWith(`${b.item}.`)));
  const clear = report.breakdown.length - flagged.length;
  if (report.breakdown.length === 0) return html`<span class="muted">No breakdown given.</span>`;
  const rest = shown.length === 0 ? `All ${clear} items clear.` : clear > 0 ? `${clear} other item${clear === 1 ? '' : 's'} clear.` : '';
  // The verdict first: on a phone a long path wraps over lines, and each entry still starts with its result.
  return cellOf(...shown.map((b) => html`${verdict(b.result)} ${codeText(b.item)}`), rest ? html`<span class="muted">${rest}</span>` : '');
}

/** Providers by the names people know them by; another is shown by its id. */
const providerNames: Record<string, string> = { onfido: 'Onfido' };

function providerResults(answer: DocumentDetails): Html {
  const results = answer.providerResults;
  if (!results) return html``;
  return table({
    caption: `${Object.hasOwn(providerNames, results.provider) ? providerNames[results.provider] : results.provider}’s own results behind those checks`,
    columns: [
      { label: 'Report', cell: (r: ProviderReport) => cellOf(codeText(r.name), r.status && r.status !== 'complete' ? html`<span class="muted">${r.status}</span>` : '') },
      { label: 'Result', cell: (r) => cellOf(verdict(r.result)) },
      { label: 'Sub-result', cell: (r) => cellOf(verdict(r.subResult)) },
      { label: 'Not clear', cell: (r) => notClear(r) },
    ],
    rows: results.reports,
    empty: 'The provider listed no reports.',
  });
}

type Comparison = { field: string; entered: string; register: string | null; same: boolean | null };

/**
 * What the person entered against the register's record of the party they stand for: the name (which may
 * differ for good reasons: decision 101) and the date of birth (which never changes: decision 122).
 */
function againstRegister(identity: Claimed | null, register: RegisterRecord): Html {
  if (register.status === 'NOT_BOUND') return html``;
  if (register.status !== 'OK') return section('Against the register', notice('error', html`<strong>The register’s record cannot be shown right now.</strong> ${register.message}`));
  if (!identity) return html``;
  const registerName = `${register.name.givenNames} ${register.name.familyName}`;
  const rows: Comparison[] = [
    { field: 'Name', entered: fullName(identity), register: registerName, same: sameRegisterName(identity, register.name) },
    { field: 'Date of birth', entered: identity.dateOfBirth, register: register.dateOfBirth, same: sameRegisterDateOfBirth(identity.dateOfBirth, register.dateOfBirth) },
  ];
  const bornElsewhere = rows[1]!.same === false;
  return section(
    'Against the register',
    html`<p class="hint">The party this person stands for, as the register holds it now (read for this view, never stored).</p>
${
  bornElsewhere
    ? notice(
        'error',
        html`<strong>The date of birth entered is not the register’s.</strong> A date of birth does not change: either the register is wrong or someone other than this party completed the link. Compare both with the date of birth on the document.`,
      )
    : ''
}
${table({
  caption: 'What the person entered, beside the register’s record',
  columns: [
    { label: 'Field', cell: (c: Comparison) => cellOf(c.field) },
    { label: 'Entered', cell: (c) => cellOf(c.entered) },
    { label: 'On the register', cell: (c) => cellOf(c.register ?? html`<span class="muted">Not held</span>`) },
    { label: 'Result', cell: (c) => cellOf(badge(c.same === null ? 'NOT_COMPARED' : c.same ? 'MATCH' : 'MISMATCH')) },
  ],
  rows,
  empty: '',
})}`,
    { id: 'against-register' },
  );
}

/** The document evidence, or why it cannot be shown; a lookup-bound person's details beside the register's. */
export function documentEvidence(answer: DocumentDetails, register: RegisterRecord): Html {
  if (answer.status !== 'OK') return section('Document and selfie', unavailable('Document evidence', answer));
  return html`${section(
    'Document and selfie',
    html`<p class="hint">Attempt ${answer.attempt?.number}, checked ${answer.attempt?.verifiedAt.slice(0, 16).replace('T', ' ')} UTC. Fetched from the identity provider for this view.</p>${images(answer)}`,
  )}
<div class="grid">
${section('Who they said they are', answer.claimedIdentity ? claimed(answer.claimedIdentity, register) : html`<p class="muted">Not given.</p>`)}
${section('The document', documents(answer))}
</div>
${againstRegister(answer.claimedIdentity, register)}
${section('Face comparison and checks', faceAndChecks(answer))}`;
}

function features(f: AmlMatches['matches'][number]['features']): Html {
  return html`name ${f.nameScore.toFixed(2)}${f.alias ? ' (an alias)' : ''}; date of birth ${f.dateOfBirth.replace(/_/g, ' ').toLowerCase()}; country ${f.country.replace(/_/g, ' ').toLowerCase()}`;
}

/** The screening lists' possible matches, screened again now, or why they cannot be shown. */
export function amlEvidence(answer: AmlMatches, options: { sentForMatch: boolean }): Html {
  if (answer.status !== 'OK') return section('Sanctions and PEP lists', unavailable('List screening', answer));
  const screened = answer.screened!;
  return section(
    'Sanctions and PEP lists',
    html`<p class="hint">Screened again now against list version ${answer.listVersion}: the lists may have changed since the check ran.</p>
${details([
  ['Screened name', screened.name],
  ['Date of birth', screened.dateOfBirth],
  ['Countries', screened.countries.join(', ')],
])}
${table({
  caption: 'List entries that may be this person, best first',
  columns: [
    {
      label: 'Entry',
      cell: (m: AmlMatches['matches'][number]) =>
        cellOf(
          html`<strong>${m.name}</strong>`,
          m.matchedName !== m.name ? html`matched as ${m.matchedName}` : '',
          html`<span class="muted">${m.source}</span>`,
          html`<span class="mono muted">${m.list} · ${m.entryId}</span>`,
        ),
    },
    { label: 'Score', cell: (m) => m.score.toFixed(2), numeric: true },
    { label: 'Categories', cell: (m) => cellOf(html`${m.categories.map((c) => html`${badge(c)} `)}`) },
    { label: 'Born, countries', cell: (m) => cellOf(m.datesOfBirth.join(', ') || 'born —', m.countries.join(', ') || 'countries —') },
    { label: 'What made the score', cell: (m) => cellOf(features(m.features)) },
  ],
  rows: answer.matches,
  empty: options.sentForMatch
    ? 'No list entry matches this person now. The entry that sent them to review may have left the list since.'
    : 'No list entry matches this person now.',
})}`,
  );
}
