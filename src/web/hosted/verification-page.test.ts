// Where a reopened verification page picks up: the outcome first (an operator's decision outranks the
// attempt it decided), then checks still running, a failed or unchecked attempt, then the first step not saved.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SessionView } from '../../modules/verifications/verification-sessions.service.ts';
import { describeRole, stepOf } from './verification-page.ts';

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

it('says every role but OTHER in words', () => {
  assert.equal(describeRole('DIRECTOR'), 'a director');
  assert.equal(describeRole('OTHER'), undefined);
});
