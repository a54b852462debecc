// The hosted identity-verification page: what a person sees when they open a verification link. Every
// step is rendered here, hidden but the current one; assets/verification-page.js moves between them and
// talks to the session API (/hosted/v1/verification-session…). The link is spent only when the person
// consents (the script's POST), never by loading the page, so a link preview cannot spend it.
import countries from '../../platform/iso-countries.ts';
import { describeRoles, roleEntity } from '../../modules/verifications/roles.ts';
import type { LinkPage, ProviderTerms, SessionView } from '../../modules/verifications/verification-sessions.service.ts';
import type { IdentityDisclosure, IdentityDocumentType } from '../../providers/identity/identity-provider.ts';
import { html, page, type Html } from '../html.ts';
import type { LinkNotice } from './link-notice.ts';

const closeNote = 'If you need help, contact the business that asked you to verify your identity.';

const verificationNotices: Record<Extract<LinkPage, { kind: 'invalid' }>['reason'] | 'UNKNOWN', LinkNotice> = {
  SPENT: {
    title: 'This link has already been used',
    body: 'Each link opens once, on one device. If you started on another phone or browser, carry on there. Otherwise, ask for a new link.',
    note: closeNote,
  },
  REPLACED: { title: 'This link has been replaced', body: 'A newer link was sent to you. Please use the most recent link you received.', note: closeNote },
  EXPIRED: { title: 'This link has expired', body: 'Verification links work for a limited time. Ask for a new link.', note: closeNote },
  FINISHED: { title: 'There is nothing more to do', body: 'Your identity verification is already finished.', note: 'The business that asked you will be in touch if they need anything else. You can close this page.' },
  UNKNOWN: { title: 'This link is not valid', body: 'Check that you opened the whole link from your message, or ask for a new one.', note: closeNote },
};

/** Why a verification link shows no flow, and its status: 404 for a link that never was, 410 for one that was. */
export function verificationLinkNotice(page: Extract<LinkPage, { kind: 'unknown' | 'invalid' }>): { status: number; notice: LinkNotice } {
  return page.kind === 'unknown' ? { status: 404, notice: verificationNotices.UNKNOWN } : { status: 410, notice: verificationNotices[page.reason] };
}

/** The live page's policy: its own script, previews of the chosen photos (blob:), its own API. */
export const verificationPageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The camera is for this page only (the selfie step), never for a frame. */
export const verificationPagePermissions = 'camera=(self), microphone=(), geolocation=()';

/**
 * The consent step's first sentence: who asked, as what, for which business. `of <entity>` is left out
 * when there is no entity name, and for a sole trader's owner, whose business name is their own name.
 */
export function askedSentence(who: { partnerName: string; role: string; roleDescription: string | null; entityName: string | null }): string {
  const { roles } = describeRoles(who.role, who.roleDescription);
  const entity = roleEntity(who.role, who.entityName);
  const asked = `${who.partnerName} has asked you to verify your identity`;
  if (roles) return `${asked} as ${roles}${entity ? ` of ${entity}` : ''}.`;
  return `${asked}${entity ? ` for ${entity}` : ''}.`;
}

export type Step = 'consent' | 'details' | 'document' | 'selfie' | 'review' | 'checking' | 'passed' | 'review-manual' | 'failed' | 'locked' | 'retry' | 'unavailable';

/** The person's outcome, by their status first: an operator's decision leaves the attempt at MANUAL_REVIEW. */
const outcomes: Record<string, Step> = { PASSED: 'passed', MANUALLY_PASSED: 'passed', MANUAL_REVIEW: 'review-manual', LOCKED_OUT: 'locked', FAILED: 'failed' };

/** Where a session picks up: an outcome, the checks running, or the first step not yet saved. */
export function stepOf(view: SessionView): Step {
  const attempt = view.attempt?.status;
  const outcome = outcomes[view.individual.status] ?? (attempt && outcomes[attempt]);
  if (outcome) return outcome;
  if (attempt === 'CHECKING') return 'checking';
  if (attempt === 'RETRY') return 'retry';
  if (attempt === 'UNAVAILABLE') return 'unavailable';
  const saved = new Set(view.completedSteps);
  return (['details', 'document', 'selfie'] as const).find((s) => !saved.has(s)) ?? 'review';
}

// ---- form parts ----

const countryOptions: Array<{ code: string; name: string }> = (() => {
  const names = countries.getNames('en', { select: 'official' });
  const all = Object.entries(names)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [all.find((c) => c.code === 'AU')!, ...all.filter((c) => c.code !== 'AU')];
})();

const states: Array<[string, string]> = [
  ['ACT', 'Australian Capital Territory'],
  ['NSW', 'New South Wales'],
  ['NT', 'Northern Territory'],
  ['QLD', 'Queensland'],
  ['SA', 'South Australia'],
  ['TAS', 'Tasmania'],
  ['VIC', 'Victoria'],
  ['WA', 'Western Australia'],
];

const countrySelect = (id: string, describedBy: string, autocomplete?: string) =>
  html`<select id="${id}"${autocomplete ? html` autocomplete="${autocomplete}"` : ''} aria-describedby="${describedBy}">${countryOptions.map(
    (c) => html`<option value="${c.code}"${c.code === 'AU' ? html` selected` : ''}>${c.name}</option>`,
  )}</select>`;

const stateOptions = html`<option value="">Choose…</option>${states.map(([code, name]) => html`<option value="${code}">${name}</option>`)}`;

/** What aria-describedby names for a control: its hint when it has one, and its error line. */
const describedBy = (id: string, hint: boolean) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);

/**
 * One field: a container naming the JSON pointer the API's problems come back at and the words a message
 * about it begins with (`data-name`), then the label, an optional hint, the control and its error line.
 * `data-show-for` lists the document types a field is for; `data-text-<type>` on a label or hint is its
 * words for that type. The script reads both.
 */
function field(o: {
  id: string;
  pointer: string;
  name: string;
  label: Html | string;
  hint?: string;
  control: (describedBy: string) => Html;
  showFor?: string;
  labelTexts?: Html;
  hintTexts?: Html;
  /** What follows the error line (a photo's preview). */
  after?: Html;
}): Html {
  return html`<div class="field" data-pointer="${o.pointer}" data-name="${o.name}"${o.showFor ? html` data-show-for="${o.showFor}" hidden` : ''}>
<label for="${o.id}"${o.labelTexts ?? ''}>${o.label}</label>
${o.hint ? html`<p class="hint" id="${o.id}-hint"${o.hintTexts ?? ''}>${o.hint}</p>` : ''}
${o.control(describedBy(o.id, Boolean(o.hint)))}
<p class="field-error" id="${o.id}-error" hidden></p>
${o.after ?? ''}
</div>`;
}

const optional = html` <span class="hint">(optional)</span>`;

/** A date as three boxes (day, month, year): easier on a phone than a picker, and typed the same everywhere. */
function dateGroup(o: { id: string; pointer: string; name: string; legend: string; hint: string; autocomplete?: string; showFor?: string; hintTexts?: Html }): Html {
  const box = (part: 'day' | 'month' | 'year', label: string, size: number) =>
    html`<div class="date-part date-${part}"><label for="${o.id}-${part}">${label}</label><input id="${o.id}-${part}" inputmode="numeric" maxlength="${size}"${
      o.autocomplete ? html` autocomplete="${o.autocomplete}-${part}"` : ''
    } aria-describedby="${o.id}-hint ${o.id}-error"></div>`;
  return html`<fieldset class="field" id="${o.id}" data-pointer="${o.pointer}" data-name="${o.name}"${o.showFor ? html` data-show-for="${o.showFor}" hidden` : ''}>
<legend>${o.legend}</legend>
<p class="hint" id="${o.id}-hint"${o.hintTexts ?? ''}>${o.hint}</p>
<div class="date">${box('day', 'Day', 2)}${box('month', 'Month', 2)}${box('year', 'Year', 4)}</div>
<p class="field-error" id="${o.id}-error" hidden></p>
</fieldset>`;
}

/** A photo to upload, with the preview the script shows once one is chosen. */
function photoField(o: { id: string; pointer: string; name: string; label: string; hint: string; showFor?: string; labelTexts?: Html; capture?: 'user' }): Html {
  return field({
    ...o,
    control: (d) => html`<input type="file" id="${o.id}" accept="image/*"${o.capture ? html` capture="${o.capture}"` : ''} aria-describedby="${d}">`,
    // The selfie's preview sits apart, above the upload: it shows the camera's photo too.
    after: o.capture ? undefined : photoPreview(o.id),
  });
}

/** Where the photo chosen for `id` is shown (the script fills it in). */
const photoPreview = (id: string) => html`<figure class="preview" id="${id}-preview" hidden><img id="${id}-preview-img" alt=""><figcaption id="${id}-preview-caption"></figcaption></figure>`;

const stepNames = { details: 'Your details', document: 'Your identity document', selfie: 'A photo of your face', review: 'Check and submit' } as const;

/** A step of the flow: a labelled section, its heading focused by the script when the step is shown. */
function section(id: Step, title: string, body: Html, options: { step?: number; current: Step }): Html {
  return html`<section class="step" id="step-${id}" aria-labelledby="step-${id}-title"${options.step ? html` data-step-number="${options.step}"` : ''}${id === options.current ? '' : html` hidden`}>
<h1 id="step-${id}-title" tabindex="-1">${title}</h1>
${body}
</section>`;
}

const planNames: Record<IdentityDocumentType, string> = { PASSPORT: 'passport', DRIVER_LICENCE: 'Australian driver licence', MEDICARE: 'Medicare card' };

/** `your passport or Australian driver licence` */
function documentsSentence(types: readonly IdentityDocumentType[]): string {
  const names = types.map((type) => planNames[type]);
  return `your ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}`;
}

/**
 * How the person's information is used. A provider outside Australia is named with where it processes
 * it, before the person agrees (Australian Privacy Principles 5 and 8: a disclosure overseas is said,
 * with the country, at collection).
 */
function usedSentence(partnerName: string, disclosure: IdentityDisclosure | null): Html {
  const checker = disclosure
    ? html`${disclosure.recipient}, an identity verification service, keeps your details and photos and checks them. ${disclosure.recipient} processes them in ${disclosure.location}, so your information leaves Australia for this check.`
    : html`An identity verification service checks them.`;
  return html`<p>Your details and photos are used only to verify your identity for ${partnerName}. ${checker} Your name is also checked against lists that the law requires businesses to check. ${partnerName} is told whether your identity was verified.</p>`;
}

function consentStep(who: { partnerName: string; role: string; roleDescription: string | null; entityName: string | null }, provider: ProviderTerms, current: Step): Html {
  // SPEC gives the partner no field for a note to the person: the page shows none. A description that is
  // the partner's own words about the role is said to be theirs.
  const { described } = describeRoles(who.role, who.roleDescription);
  return section(
    'consent',
    'Verify your identity',
    html`<p id="asked">${askedSentence(who)}</p>
${described ? html`<p>${who.partnerName} describes your role as “${described}”.</p>` : ''}
<h2>What we will ask for</h2>
<ol class="plan">
<li>Your name, date of birth and home address</li>
<li>Photos of ${documentsSentence(provider.documentTypes)}</li>
<li>A photo of your face, taken with your camera or uploaded</li>
<li>A last check before you submit</li>
</ol>
<p>It takes about 5 minutes. Have your document with you.</p>
<h2>How your information is used</h2>
${usedSentence(who.partnerName, provider.disclosure)}
<form id="consent-form" novalidate>
<div class="field checkbox" data-pointer="/consent" data-name="Your agreement">
<input type="checkbox" id="consent" aria-describedby="consent-error">
<label for="consent">I agree to my details and photos being used to verify my identity for ${who.partnerName}${provider.disclosure ? html`, and being sent to ${provider.disclosure.recipient} in ${provider.disclosure.location} for that` : ''}.</label>
<p class="field-error" id="consent-error" hidden></p>
</div>
<button type="submit">Continue</button>
</form>
<p class="muted small">This link opens once. After you continue, finish on this device: the link will not open anywhere else.</p>`,
    { current },
  );
}

function detailsStep(current: Step): Html {
  return section(
    'details',
    stepNames.details,
    html`<p>Enter your details exactly as they appear on your identity document.</p>
<form id="details-form" novalidate>
${field({ id: 'first-name', pointer: '/firstName', name: 'Your first name', label: 'First name', control: (d) => html`<input id="first-name" autocomplete="given-name" maxlength="100" aria-describedby="${d}">` })}
${field({ id: 'middle-name', pointer: '/middleName', name: 'Your middle name', label: html`Middle names${optional}`, control: (d) => html`<input id="middle-name" autocomplete="additional-name" maxlength="100" aria-describedby="${d}">` })}
${field({ id: 'last-name', pointer: '/lastName', name: 'Your last name', label: 'Last name', control: (d) => html`<input id="last-name" autocomplete="family-name" maxlength="100" aria-describedby="${d}">` })}
${dateGroup({ id: 'dob', pointer: '/dateOfBirth', name: 'Your date of birth', legend: 'Date of birth', hint: 'For example, 27 3 1985', autocomplete: 'bday' })}
<fieldset class="group">
<legend>Your home address</legend>
${field({ id: 'line1', pointer: '/address/line1', name: 'The street address', label: 'Street address', control: (d) => html`<input id="line1" autocomplete="address-line1" maxlength="200" aria-describedby="${d}">` })}
${field({ id: 'line2', pointer: '/address/line2', name: 'The second address line', label: html`Apartment, unit or building${optional}`, control: (d) => html`<input id="line2" autocomplete="address-line2" maxlength="200" aria-describedby="${d}">` })}
${field({ id: 'locality', pointer: '/address/locality', name: 'The suburb or town', label: 'Suburb or town', control: (d) => html`<input id="locality" autocomplete="address-level2" maxlength="100" aria-describedby="${d}">` })}
<div class="field" data-pointer="/address/state" data-name="The state">
<label for="state" id="state-label">State or territory</label>
<select id="state" autocomplete="address-level1" aria-describedby="state-error">${stateOptions}</select>
<input id="state-other" autocomplete="address-level1" maxlength="50" aria-describedby="state-error" hidden>
<p class="field-error" id="state-error" hidden></p>
</div>
${field({ id: 'postcode', pointer: '/address/postcode', name: 'The postcode', label: 'Postcode', control: (d) => html`<input id="postcode" class="short" autocomplete="postal-code" inputmode="numeric" maxlength="10" aria-describedby="${d}">` })}
${field({ id: 'country', pointer: '/address/country', name: 'The country', label: 'Country', control: (d) => countrySelect('country', d, 'country') })}
</fieldset>
${field({ id: 'email', pointer: '/email', name: 'Your email address', label: html`Email${optional}`, control: (d) => html`<input id="email" type="email" autocomplete="email" maxlength="254" aria-describedby="${d}">` })}
${field({ id: 'phone', pointer: '/phone', name: 'Your phone number', label: html`Mobile phone${optional}`, control: (d) => html`<input id="phone" type="tel" autocomplete="tel" maxlength="21" aria-describedby="${d}">` })}
<button type="submit">Save and continue</button>
</form>`,
    { step: 1, current },
  );
}

/** `data-text-passport="…"`: a label's words for each document type. */
const textsFor = (texts: { passport?: string; licence?: string; medicare?: string }) =>
  html`${texts.passport ? html` data-text-passport="${texts.passport}"` : ''}${texts.licence ? html` data-text-driver_licence="${texts.licence}"` : ''}${texts.medicare ? html` data-text-medicare="${texts.medicare}"` : ''}`;

function documentStep(types: readonly IdentityDocumentType[], current: Step): Html {
  const choice = (value: string, id: string, label: string) =>
    html`<div class="choice"><input type="radio" name="type" id="${id}" value="${value}" aria-describedby="type-error"><label for="${id}">${label}</label></div>`;
  return section(
    'document',
    stepNames.document,
    html`<form id="document-form" novalidate>
<fieldset class="field" id="type" data-pointer="/type" data-name="The document type">
<legend>Which document will you use?</legend>
<div class="choices">${types.includes('PASSPORT') ? choice('PASSPORT', 'type-passport', 'Passport') : ''}${types.includes('DRIVER_LICENCE') ? choice('DRIVER_LICENCE', 'type-licence', 'Australian driver licence') : ''}${types.includes('MEDICARE') ? choice('MEDICARE', 'type-medicare', 'Medicare card') : ''}</div>
<p class="field-error" id="type-error" hidden></p>
</fieldset>
${field({ id: 'issuing-country', pointer: '/issuingCountry', name: 'The country', label: 'Country that issued the passport', showFor: 'PASSPORT', control: (d) => countrySelect('issuing-country', d) })}
${field({ id: 'issuing-state', pointer: '/issuingState', name: 'The state or territory', label: 'State or territory that issued the licence', showFor: 'DRIVER_LICENCE', control: (d) => html`<select id="issuing-state" aria-describedby="${d}">${stateOptions}</select>` })}
${field({
  id: 'doc-number',
  pointer: '/number',
  name: 'The document number',
  label: 'Document number',
  labelTexts: textsFor({ passport: 'Passport number', licence: 'Licence number', medicare: 'Medicare card number' }),
  showFor: 'PASSPORT DRIVER_LICENCE MEDICARE',
  control: (d) => html`<input id="doc-number" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="30" aria-describedby="${d}">`,
})}
${field({
  id: 'card-number',
  pointer: '/cardNumber',
  name: 'The card number',
  label: 'Card number',
  labelTexts: textsFor({ licence: 'Card number (optional)', medicare: 'Your number on the card' }),
  hint: 'The number next to your name on the card, 1 to 9.',
  hintTexts: textsFor({ licence: 'A second number on the licence card, often near the photo or on the back.', medicare: 'The number next to your name on the card, 1 to 9.' }),
  showFor: 'DRIVER_LICENCE MEDICARE',
  control: (d) => html`<input id="card-number" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="20" aria-describedby="${d}">`,
})}
${dateGroup({
  id: 'expiry',
  pointer: '/expiryDate',
  name: 'The expiry date',
  legend: 'Expiry date',
  hint: 'As printed on the document, for example 31 12 2030.',
  hintTexts: textsFor({ medicare: 'As printed on the card. If it shows only a month and year, leave Day empty.' }),
  showFor: 'PASSPORT DRIVER_LICENCE MEDICARE',
})}
${photoField({
  id: 'front',
  pointer: '/front',
  name: 'The photo of the front',
  label: 'Photo of the front',
  labelTexts: textsFor({ passport: 'Photo of the passport’s photo page', licence: 'Photo of the front of the licence', medicare: 'Photo of the front of the card' }),
  hint: 'A JPEG or PNG photo, in focus, with all four corners showing and no glare.',
  showFor: 'PASSPORT DRIVER_LICENCE MEDICARE',
})}
${photoField({ id: 'back', pointer: '/back', name: 'The photo of the back', label: 'Photo of the back of the licence (optional)', hint: 'Add it if your licence has details on the back.', showFor: 'DRIVER_LICENCE' })}
<button type="submit">Save and continue</button>
<button type="button" class="secondary" data-goto="details">Back</button>
</form>`,
    { step: 2, current },
  );
}

function selfieStep(current: Step): Html {
  return section(
    'selfie',
    stepNames.selfie,
    html`<p>We compare this photo with the photo on your document.</p>
<ul class="tips"><li>Face the camera in good light.</li><li>Take off glasses, hats and face coverings (except for religious reasons).</li><li>Only you should be in the photo.</li></ul>
<form id="selfie-form" novalidate>
<div class="camera" id="camera" hidden>
<button type="button" id="camera-start">Use my camera</button>
<div class="camera-live" id="camera-live" hidden>
<video id="camera-video" autoplay muted playsinline aria-label="What your camera sees"></video>
<button type="button" id="camera-take">Take photo</button>
</div>
</div>
${photoPreview('selfie-file')}
${photoField({ id: 'selfie-file', pointer: '/image', name: 'The photo of your face', label: 'Upload a photo instead', hint: 'A JPEG or PNG photo of your face.', capture: 'user' })}
<button type="submit" id="selfie-submit">Save and continue</button>
<button type="button" class="secondary" data-goto="document">Back</button>
</form>`,
    { step: 3, current },
  );
}

function reviewStep(current: Step): Html {
  const item = (step: 'details' | 'document' | 'selfie', label: string) =>
    html`<li><span class="check-name">${label}</span> <span class="check-state" id="saved-${step}">Saved</span> <button type="button" class="link-button" data-goto="${step}">Change<span class="visually-hidden"> ${label.toLowerCase()}</span></button></li>`;
  return section(
    'review',
    stepNames.review,
    html`<ul class="checklist">${item('details', 'Your details')}${item('document', 'Your identity document')}${item('selfie', 'Photo of your face')}</ul>
<p>When you submit, your document and photo are checked. This usually takes less than a minute.</p>
<button type="button" id="submit-checks">Submit for checking</button>`,
    { step: 4, current },
  );
}

/** The checks running, and every outcome, in the person's words: never a score, a code or a list's name. */
function outcomePanels(partnerName: string, attemptsRemaining: number, current: Step): Html {
  const attempts = html`<span class="attempts-left">${attemptsRemaining === 1 ? '1 attempt' : `${attemptsRemaining} attempts`}</span>`;
  return html`${section(
    'checking',
    'Checking your identity…',
    html`<div class="spinner" aria-hidden="true"></div>
<p role="status">We are checking your document and photo. This usually takes less than a minute. Keep this page open to see the result.</p>`,
    { current },
  )}
${section('passed', 'You’re done', html`<p>Thank you. Your identity has been verified.</p><p>${partnerName} will be in touch if they need anything else. You can close this page.</p>`, { current })}
${section('review-manual', 'We need a person to look at your documents', html`<p>You don’t need to do anything. ${partnerName} will be told the outcome and will be in touch.</p><p class="muted">You can close this page.</p>`, { current })}
${section('failed', 'We couldn’t verify your identity', html`<p>Contact ${partnerName} to talk about other ways to confirm who you are.</p><p class="muted">You can close this page.</p>`, { current })}
${section('locked', 'We couldn’t verify your identity', html`<p>There have been too many attempts, so this verification is now closed. Contact ${partnerName} to talk about other ways to confirm who you are.</p><p class="muted">You can close this page.</p>`, { current })}
${section(
  'retry',
  'We couldn’t verify your identity this time',
  html`<p>You can try again (${attempts} left). Take new photos of your document and of your face: make sure they are sharp, well lit and show the whole document.</p>
<button type="button" id="retry-start">Try again</button>`,
  { current },
)}
${section(
  'unavailable',
  'We couldn’t check your documents just now',
  html`<p>Our checking service is not available at the moment. Nothing you entered is lost, and this did not use up an attempt.</p><p>Try again in a few minutes.</p>
<button type="button" id="unavailable-retry">Submit again</button>`,
  { current },
)}
<section class="step" id="step-ended" aria-labelledby="step-ended-title" hidden>
<h1 id="step-ended-title" tabindex="-1">This page has stopped working</h1>
<p id="ended-reason">For your security, this page works for a limited time, and stops when a newer link is sent to you.</p>
<p>Open the most recent link you were sent, or ask ${partnerName} for a new one.</p>
</section>`;
}

type PageState = Extract<LinkPage, { kind: 'start' | 'resume' }>;

/** The whole page, opened at the consent step (a fresh link) or where the session was (a reload). */
export function renderVerificationPage(state: PageState): string {
  const who =
    state.kind === 'start'
      ? { partnerName: state.partnerName, role: state.role, roleDescription: state.roleDescription, entityName: state.entityName, attemptsRemaining: 0, completed: [] as string[] }
      : {
          partnerName: state.view.partner.name,
          ...state.view.individual,
          entityName: state.entityName,
          attemptsRemaining: state.view.attemptsRemaining,
          completed: state.view.completedSteps as string[],
        };
  const current: Step = state.kind === 'start' ? 'consent' : stepOf(state.view);
  const number = { details: 1, document: 2, selfie: 3, review: 4 }[current as 'details'];
  const body = html`<div class="panel" id="flow" data-step="${current}" data-completed="${who.completed.join(' ')}" data-attempts-remaining="${who.attemptsRemaining}"
 data-open-url="/hosted/v1/verification-sessions" data-session-url="/hosted/v1/verification-session">
<p class="partner">${who.partnerName}</p>
<div class="progress" id="progress"${number ? '' : html` hidden`}>
<p id="progress-text">Step <span id="progress-number">${number ?? 1}</span> of 4</p>
<ol class="progress-bar" aria-hidden="true">${[1, 2, 3, 4].map((n) => html`<li${number && n <= number ? html` class="done"` : ''}></li>`)}</ol>
</div>
<div id="errors" class="errors" role="alert" tabindex="-1" hidden></div>
${consentStep(who, state.provider, current)}
${detailsStep(current)}
${documentStep(state.provider.documentTypes, current)}
${selfieStep(current)}
${reviewStep(current)}
${outcomePanels(who.partnerName, who.attemptsRemaining, current)}
<p id="busy" class="muted busy" role="status" aria-live="polite"></p>
</div>
<noscript><p class="errors">This page needs JavaScript to take photos and send your details securely. Turn it on, or open the link in another browser.</p></noscript>`;
  return page({ title: `Verify your identity · ${who.partnerName}`, body, scripts: ['/hosted/assets/verification-page.js'] });
}
