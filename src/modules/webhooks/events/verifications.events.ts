// Verification events carry ids and outcomes only: never a first name, last name, email or phone.
import { Type, type TSchema } from '@sinclair/typebox';
import { verificationRoles } from '../../verifications/roles.ts';
import { defineEvent, fields, nullable, oneOf, Timestamp } from './define.ts';

const verificationRequestId = Type.String({ description: 'The verification request (`ver_…`).' });
const individual = {
  verificationRequestId,
  individualId: Type.String({ description: 'The individual (`ind_…`).' }),
  externalId: Type.Optional(Type.String({ description: 'Your id for the individual; present when you gave one.' })),
};
const ids = { verificationRequestId: 'ver_01JD0000000000000000000000', individualId: 'ind_01JD0000000000000000000000', externalId: 'client-42' };

// SPEC's VerificationRole values (one list, in modules/verifications/roles.ts); an unrecognised role given at create is stored as OTHER.
const roles = verificationRoles;

export const verificationRequestCreated = defineEvent({
  type: 'verification.request.created',
  category: 'VERIFICATIONS',
  description: 'A verification request is created.',
  subject: 'verificationRequestId',
  payload: fields({
    verificationRequestId,
    mode: oneOf(['AUSTRAC_CDD', 'TPB_POI'], { description: 'AUSTRAC_CDD: entity customer due diligence; TPB_POI: proof of identity.' }),
    status: oneOf(['DRAFT', 'UBO_REVIEW', 'READY_TO_SEND'], { description: 'The status the request was created in.' }),
    lookupRequestId: nullable(Type.String(), 'The bound business lookup, or null for a hand-built request.'),
  }),
  example: { verificationRequestId: ids.verificationRequestId, mode: 'AUSTRAC_CDD', status: 'READY_TO_SEND', lookupRequestId: 'lkp_01JD0000000000000000000000' },
});

export const verificationIndividualAdded = defineEvent({
  type: 'verification.individual.added',
  category: 'VERIFICATIONS',
  description: 'An individual is added to a request.',
  subject: 'verificationRequestId',
  payload: fields({
    ...individual,
    role: oneOf(roles, { description: 'The individual’s role (a VerificationRole value).' }),
    status: Type.Literal('PENDING', { description: 'Always PENDING: no link has been opened yet.' }),
  }),
  example: { ...ids, role: 'DIRECTOR', status: 'PENDING' },
});

export const verificationIndividualInProgress = defineEvent({
  type: 'verification.individual.in_progress',
  category: 'VERIFICATIONS',
  description: 'The individual opens their verification link.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, status: Type.Literal('IN_PROGRESS', { description: 'The individual status.' }) }),
  example: { ...ids, status: 'IN_PROGRESS' },
});

// SPEC's order: the ids, status, then the outcome.
const outcome = <S extends TSchema>(status: S) =>
  fields({
    ...individual,
    status,
    manualOverride: Type.Boolean({ description: 'True when an operator decided the outcome.' }),
    attemptCount: Type.Integer({ minimum: 0, description: 'Attempts the individual submitted.' }),
    completedAt: Timestamp('When the outcome was reached.'),
  });

export const verificationIndividualPassed = defineEvent({
  type: 'verification.individual.passed',
  category: 'VERIFICATIONS',
  description: 'The individual passes, automatically or by operator override. The identity is verified.',
  subject: 'verificationRequestId',
  payload: outcome(oneOf(['PASSED', 'MANUALLY_PASSED'], { description: 'The individual status: MANUALLY_PASSED when an operator passed it.' })),
  example: { ...ids, status: 'PASSED', manualOverride: false, attemptCount: 1, completedAt: '2026-11-21T10:15:00.000Z' },
});

export const verificationIndividualFailed = defineEvent({
  type: 'verification.individual.failed',
  category: 'VERIFICATIONS',
  description: 'The individual fails, automatically or by operator override. A failed attempt that can still be retried sends no event.',
  subject: 'verificationRequestId',
  payload: outcome(Type.Literal('FAILED', { description: 'The individual status.' })),
  example: { ...ids, status: 'FAILED', manualOverride: true, attemptCount: 2, completedAt: '2026-11-21T10:15:00.000Z' },
});

export const verificationIndividualManualReview = defineEvent({
  type: 'verification.individual.manual_review',
  category: 'VERIFICATIONS',
  description: 'An outcome needs an operator to review it; a passed or failed event follows the decision.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, status: Type.Literal('MANUAL_REVIEW', { description: 'The individual status.' }) }),
  example: { ...ids, status: 'MANUAL_REVIEW' },
});

export const verificationIndividualLockedOut = defineEvent({
  type: 'verification.individual.locked_out',
  category: 'VERIFICATIONS',
  description: 'The individual reaches the attempt limit.',
  subject: 'verificationRequestId',
  payload: fields({
    ...individual,
    status: Type.Literal('LOCKED_OUT', { description: 'The individual status.' }),
    attemptCount: Type.Integer({ minimum: 0, description: 'Attempts the individual submitted.' }),
    maxAttempts: Type.Integer({ minimum: 1, description: 'The attempt limit.' }),
  }),
  example: { ...ids, status: 'LOCKED_OUT', attemptCount: 3, maxAttempts: 3 },
});

export const verificationRequestCompleted = defineEvent({
  type: 'verification.request.completed',
  category: 'VERIFICATIONS',
  description: 'Every individual of the request has reached a terminal status.',
  subject: 'verificationRequestId',
  payload: fields({
    verificationRequestId,
    status: Type.Literal('COMPLETED', { description: 'The request status.' }),
    riskLevel: oneOf(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'], { description: 'The overall risk level.' }),
    completedAt: Timestamp('When the last individual reached a terminal status.'),
  }),
  example: { verificationRequestId: ids.verificationRequestId, status: 'COMPLETED', riskLevel: 'LOW', completedAt: '2026-11-21T10:20:00.000Z' },
});

/** In the order the reference lists them. */
export const verificationEvents = [verificationRequestCreated, verificationIndividualAdded, verificationIndividualInProgress, verificationIndividualPassed, verificationIndividualFailed, verificationIndividualManualReview, verificationIndividualLockedOut, verificationRequestCompleted] as const;
