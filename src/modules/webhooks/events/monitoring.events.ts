// Monitoring events carry contactId and product; never a name, entity id, snippet, URL or raw match.
// They are delivered only to partners eligible for monitoring.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields } from './define.ts';

const coverage = Type.Array(Type.Union([Type.Literal('SANCTIONS'), Type.Literal('PEP'), Type.Literal('ADVERSE_MEDIA')]));
const subject = { contactId: Type.String(), product: Type.String({ description: 'The monitoring product, `SCREENING`.' }) };
const ids = { contactId: 'con_01JD0000000000000000000000', product: 'SCREENING' };
const alert = { ...subject, monitoringAlertId: Type.String(), categories: Type.Array(Type.String()) };

export const monitoringAlertCreated = defineEvent({
  type: 'monitoring.alert.created',
  category: 'MONITORING',
  description: 'Screening opens a case on a monitored contact: a possible match, not a verdict.',
  subject: 'contactId',
  payload: fields({ ...alert, status: Type.Literal('OPEN') }),
  example: { ...ids, monitoringAlertId: 'mal_01JD0000000000000000000000', categories: ['SANCTIONS'], status: 'OPEN' },
});

export const monitoringAlertUpdated = defineEvent({
  type: 'monitoring.alert.updated',
  category: 'MONITORING',
  description: 'An open case changes, most often when it is decided and its status leaves OPEN.',
  subject: 'contactId',
  payload: fields({ ...alert, status: Type.Union([Type.Literal('OPEN'), Type.Literal('CONFIRMED'), Type.Literal('DISMISSED')]) }),
  example: { ...ids, monitoringAlertId: 'mal_01JD0000000000000000000000', categories: ['SANCTIONS'], status: 'DISMISSED' },
});

export const monitoringSubscriptionEnabled = defineEvent({
  type: 'monitoring.subscription.enabled',
  category: 'MONITORING',
  description: 'The contact is confirmed monitored.',
  subject: 'contactId',
  payload: fields({ ...subject, coverage }),
  example: { ...ids, coverage: ['SANCTIONS', 'PEP'] },
});

export const monitoringSubscriptionDisabled = defineEvent({
  type: 'monitoring.subscription.disabled',
  category: 'MONITORING',
  description: 'The contact is confirmed no longer monitored.',
  subject: 'contactId',
  payload: fields(subject),
  example: ids,
});

export const monitoringSubscriptionCoverageMismatch = defineEvent({
  type: 'monitoring.subscription.coverage_mismatch',
  category: 'MONITORING',
  description: 'Running coverage differs from what was requested: an open compliance issue.',
  subject: 'contactId',
  payload: fields({ ...subject, requestedCoverage: coverage, observedCoverage: coverage }),
  example: { ...ids, requestedCoverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'], observedCoverage: ['SANCTIONS', 'PEP'] },
});

export const monitoringSubscriptionError = defineEvent({
  type: 'monitoring.subscription.error',
  category: 'MONITORING',
  description: 'The subscription is in error; the contact is not reliably monitored until an enabled event follows.',
  subject: 'contactId',
  payload: fields({ ...subject, errorCode: Type.String() }),
  example: { ...ids, errorCode: 'NO_LIST_LOADED' },
});
