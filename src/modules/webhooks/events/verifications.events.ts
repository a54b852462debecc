// Verification events carry ids and outcomes only: never a first name, last name, email or phone.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, nullable, Timestamp } from './define.ts';

const individual = {
  verificationRequestId: Type.String(),
  individualId: Type.String(),
  externalId: Type.Optional(Type.String({ description: 'Your id for the individual, when you gave one at create.' })),
};
const ids = { verificationRequestId: 'ver_01JD0000000000000000000000', individualId: 'ind_01JD0000000000000000000000', externalId: 'client-42' };

export const verificationRequestCreated = defineEvent({
  type: 'verification.request.created',
  category: 'VERIFICATIONS',
  description: 'A verification request is created.',
  subject: 'verificationRequestId',
  payload: fields({
    verificationRequestId: Type.String(),
    mode: Type.String({ description: 'AUSTRAC_CDD or TPB_POI.' }),
    status: Type.String(),
    lookupRequestId: nullable(Type.String()),
  }),
  example: { verificationRequestId: ids.verificationRequestId, mode: 'AUSTRAC_CDD', status: 'READY_TO_SEND', lookupRequestId: 'lkp_01JD0000000000000000000000' },
});

export const verificationIndividualAdded = defineEvent({
  type: 'verification.individual.added',
  category: 'VERIFICATIONS',
  description: 'An individual is added to a request.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, role: Type.String(), status: Type.String() }),
  example: { ...ids, role: 'DIRECTOR', status: 'PENDING' },
});

export const verificationIndividualInProgress = defineEvent({
  type: 'verification.individual.in_progress',
  category: 'VERIFICATIONS',
  description: 'The individual opens their verification link.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, status: Type.Literal('IN_PROGRESS') }),
  example: { ...ids, status: 'IN_PROGRESS' },
});

const outcome = {
  ...individual,
  manualOverride: Type.Boolean({ description: 'True when an operator decided.' }),
  attemptCount: Type.Integer(),
  completedAt: Timestamp,
};

export const verificationIndividualPassed = defineEvent({
  type: 'verification.individual.passed',
  category: 'VERIFICATIONS',
  description: 'The individual passes, automatically or by operator override.',
  subject: 'verificationRequestId',
  payload: fields({ ...outcome, status: Type.Union([Type.Literal('PASSED'), Type.Literal('MANUALLY_PASSED')]) }),
  example: { ...ids, status: 'PASSED', manualOverride: false, attemptCount: 1, completedAt: '2026-11-21T10:15:00.000Z' },
});

export const verificationIndividualFailed = defineEvent({
  type: 'verification.individual.failed',
  category: 'VERIFICATIONS',
  description: 'The individual fails, automatically or by operator override.',
  subject: 'verificationRequestId',
  payload: fields({ ...outcome, status: Type.Literal('FAILED') }),
  example: { ...ids, status: 'FAILED', manualOverride: true, attemptCount: 2, completedAt: '2026-11-21T10:15:00.000Z' },
});

export const verificationIndividualManualReview = defineEvent({
  type: 'verification.individual.manual_review',
  category: 'VERIFICATIONS',
  description: 'An outcome needs an operator to review it.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, status: Type.Literal('MANUAL_REVIEW') }),
  example: { ...ids, status: 'MANUAL_REVIEW' },
});

export const verificationIndividualLockedOut = defineEvent({
  type: 'verification.individual.locked_out',
  category: 'VERIFICATIONS',
  description: 'The individual reaches the attempt limit.',
  subject: 'verificationRequestId',
  payload: fields({ ...individual, status: Type.Literal('LOCKED_OUT'), attemptCount: Type.Integer(), maxAttempts: Type.Integer() }),
  example: { ...ids, status: 'LOCKED_OUT', attemptCount: 3, maxAttempts: 3 },
});

export const verificationRequestCompleted = defineEvent({
  type: 'verification.request.completed',
  category: 'VERIFICATIONS',
  description: 'Every individual of the request has reached a terminal status.',
  subject: 'verificationRequestId',
  payload: fields({
    verificationRequestId: Type.String(),
    status: Type.Literal('COMPLETED'),
    riskLevel: Type.String({ description: 'LOW, MEDIUM, HIGH or UNKNOWN.' }),
    completedAt: Timestamp,
  }),
  example: { verificationRequestId: ids.verificationRequestId, status: 'COMPLETED', riskLevel: 'LOW', completedAt: '2026-11-21T10:20:00.000Z' },
});
