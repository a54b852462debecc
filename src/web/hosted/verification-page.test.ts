// Where a reopened verification page picks up: the outcome first (an operator's decision outranks the
// attempt it decided), then checks still running, a failed or unchecked attempt, then the first step not saved.
// And the consent step's first words: who asked, as what, for which business; never a note the partner
// did not write. And what it says of the identity provider: who gets the details, where, and which documents.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ProviderTerms, SessionView } from '../../modules/verifications/verification-sessions.service.ts';
import { askedSentence, renderVerificationPage, stepOf } from './verification-page.ts';

function view(status: string, attempt: string | null, completedSteps: SessionView['completedSteps'] = []): SessionView {
  return {
    expiresAt: '2026-11-25T09:00:00.000Z',
    individual: { role: 'DIRECTOR', roleDescription: null, status },
    partner: { name: 'Ledger Tax' },
    attemptsRemaining: 2,
    completedSteps,
    attempt: attempt ? { number: 1, status: attempt as NonNullable<SessionView['attempt']>['status'] } : null,
  };
}

const sandboxTerms: ProviderTerms = { documentTypes: ['PASSPORT', 'DRIVER_LICENCE', 'MEDICARE'], disclosure: null };

it('resumes at the first step not saved, then the review', () => {
  assert.equal(stepOf(view('IN_PROGRESS', null)), 'details');
  assert.equal(stepOf(view('IN_PROGRESS', null, ['details'])), 'document');
  assert.equal(stepOf(view('IN_PROGRESS', null, ['details', 'document'])), 'selfie');
  assert.equal(stepOf(view('IN_PROGRESS', null, ['details', 'document', 'selfie'])), 'review');
});

it('shows checks running, a failed attempt with attempts left, and checks that could not run', () => {
  assert.equal(stepOf(view('IN_PROGRESS', 'CHECKING', ['details', 'document', 'selfie'])), 'checking');
  assert.equal(stepOf(view('IN_PROGRESS', 'RETRY', ['details', 'document', 'selfie'])), 'retry');
  assert.equal(stepOf(view('IN_PROGRESS', 'UNAVAILABLE', ['details', 'document', 'selfie'])), 'unavailable');
});

it('shows the outcome, the individual’s status before the attempt’s', () => {
  assert.equal(stepOf(view('PASSED', 'PASSED')), 'passed');
  assert.equal(stepOf(view('MANUALLY_PASSED', 'MANUAL_REVIEW')), 'passed', 'an operator passed the attempt sent to review');
  assert.equal(stepOf(view('FAILED', 'MANUAL_REVIEW')), 'failed');
  assert.equal(stepOf(view('MANUAL_REVIEW', 'MANUAL_REVIEW')), 'review-manual');
  assert.equal(stepOf(view('LOCKED_OUT', 'LOCKED_OUT')), 'locked');
});

const entity = 'WATTLE CREEK LOGISTICS PTY LTD';
const asked = (role: string, roleDescription: string | null, entityName: string | null = entity) => askedSentence({ partnerName: 'Demo Partner', role, roleDescription, entityName });

it('names the person’s roles in plain words, the register’s other roles with them, for the business', () => {
  assert.equal(asked('DIRECTOR', null), `Demo Partner has asked you to verify your identity as a director of ${entity}.`);
  // roles.ts: a director who is also the secretary is a DIRECTOR with `SECRETARY` in roleDescription.
  assert.equal(asked('DIRECTOR', 'SECRETARY'), `Demo Partner has asked you to verify your identity as a director and company secretary of ${entity}.`);
  assert.equal(asked('UBO', 'DIRECTOR, SECRETARY'), `Demo Partner has asked you to verify your identity as a beneficial owner, director and company secretary of ${entity}.`);
  assert.equal(asked('DIRECTOR', 'SHAREHOLDER'), `Demo Partner has asked you to verify your identity as a director and shareholder of ${entity}.`);
  assert.equal(asked('OFFICER', null), `Demo Partner has asked you to verify your identity as an officer of ${entity}.`);
  assert.equal(asked('AUTHORISED_REP', null), `Demo Partner has asked you to verify your identity as an authorised representative of ${entity}.`);
  assert.equal(asked('TRUSTEE', 'APPOINTOR'), `Demo Partner has asked you to verify your identity as a trustee and appointor of ${entity}.`);
  assert.equal(asked('SETTLOR', 'BENEFICIARY'), `Demo Partner has asked you to verify your identity as the settlor and a beneficiary of ${entity}.`);
  assert.equal(asked('OTHER_CONTROLLER', null), `Demo Partner has asked you to verify your identity as a person with control of ${entity}.`);
});

it('leaves the business out when there is none, and for a sole trader, whose business is their own name', () => {
  assert.equal(asked('DIRECTOR', 'SECRETARY', null), 'Demo Partner has asked you to verify your identity as a director and company secretary.');
  assert.equal(asked('INDIVIDUAL_OWNER', null, 'KINGSLEY, OLIVER JAMES'), 'Demo Partner has asked you to verify your identity as the owner of the business.');
  assert.equal(asked('OTHER', null, null), 'Demo Partner has asked you to verify your identity.');
});

it('says nothing of roles it does not know, and keeps the partner’s own description apart', () => {
  assert.equal(asked('OTHER', null), `Demo Partner has asked you to verify your identity for ${entity}.`);
  assert.equal(asked('OTHER', 'CHIEF_WIZARD'), `Demo Partner has asked you to verify your identity for ${entity}.`);
  assert.equal(asked('DIRECTOR', 'CHIEF_WIZARD, SECRETARY'), `Demo Partner has asked you to verify your identity as a director and company secretary of ${entity}.`);
  assert.equal(asked('DIRECTOR', 'DIRECTOR'), `Demo Partner has asked you to verify your identity as a director of ${entity}.`, 'a role said once');
});

it('shows no note from the partner, which SPEC gives no field for, and escapes every word', () => {
  const start = (roleDescription: string | null, entityName: string | null) =>
    renderVerificationPage({ kind: 'start', partnerName: 'Demo <Partner>', role: 'DIRECTOR', roleDescription, entityName, provider: sandboxTerms });
  const page = start('SECRETARY', 'WATTLE & CREEK <PTY> LTD');
  assert.match(page, /<p id="asked">Demo &lt;Partner&gt; has asked you to verify your identity as a director and company secretary of WATTLE &amp; CREEK &lt;PTY&gt; LTD\.<\/p>/);
  assert.doesNotMatch(page, /Note from/);
  assert.doesNotMatch(page, /describes your role/);
  assert.doesNotMatch(page, /SECRETARY/, 'the register’s code is said in words only');
  const described = start('Signs the <b>tax</b> returns', null);
  assert.match(described, /Demo &lt;Partner&gt; describes your role as “Signs the &lt;b&gt;tax&lt;\/b&gt; returns”\./);
  assert.doesNotMatch(described, /Note from/);
});

it('names a provider abroad and where it processes the details before the person agrees, and offers only the documents it takes', () => {
  const render = (provider: ProviderTerms) => renderVerificationPage({ kind: 'start', partnerName: 'Demo Partner', role: 'DIRECTOR', roleDescription: null, entityName: null, provider });
  const sandbox = render(sandboxTerms);
  assert.doesNotMatch(sandbox, /leaves Australia/);
  assert.match(sandbox, /<li>Photos of your passport, Australian driver licence or Medicare card<\/li>/);
  assert.match(sandbox, /id="type-medicare"/);

  const onfido = render({ documentTypes: ['PASSPORT', 'DRIVER_LICENCE'], disclosure: { recipient: 'Onfido', location: 'the European Union' } });
  assert.match(onfido, /Onfido, an identity verification service, keeps your details and photos and checks them\. Onfido processes them in the European Union, so your information leaves Australia for this check\./);
  assert.match(onfido, /<label for="consent">I agree to my details and photos being used to verify my identity for Demo Partner, and being sent to Onfido in the European Union for that\.<\/label>/);
  assert.match(onfido, /<li>Photos of your passport or Australian driver licence<\/li>/);
  assert.doesNotMatch(onfido, /id="type-medicare"/);
  assert.match(onfido, /id="type-licence"/);
});
