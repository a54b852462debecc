// Monitoring events carry contactId and product; never a name, entity id, snippet, URL or raw match.
// They are delivered only to partners eligible for monitoring.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, oneOf } from './define.ts';

const coverage = (description: string) => Type.Array(oneOf(['SANCTIONS', 'PEP', 'ADVERSE_MEDIA']), { uniqueItems: true, description });
const subject = {
  contactId: Type.String({ description: 'The monitored contact (`con_…`).' }),
  product: Type.String({ description: 'The monitoring product: `SCREENING`.' }),
};
const ids = { contactId: 'con_01JD0000000000000000000000', product: 'SCREENING' };
const alert = {
  ...subject,
  monitoringAlertId: Type.String({ description: 'The alert (`mal_…`); read or decide it with `/v1/monitoring/alerts/{id}`.' }),
  categories: Type.Array(Type.String(), { description: 'The list categories of the possible match, such as `SANCTIONS` or `PEP`.' }),
};

export const monitoringAlertCreated = defineEvent({
  type: 'monitoring.alert.created',
  category: 'MONITORING',
  description: 'Screening opens a case on a monitored contact: a possible match, not a verdict.',
  subject: 'contactId',
  payload: fields({ ...alert, status: Type.Literal('OPEN', { description: 'A new alert is always OPEN.' }) }),
  example: { ...ids, monitoringAlertId: 'mal_01JD0000000000000000000000', categories: ['SANCTIONS'], status: 'OPEN' },
});

export const monitoringAlertUpdated = defineEvent({
  type: 'monitoring.alert.updated',
  category: 'MONITORING',
  description: 'An open case changes, most often when it is decided and its status leaves OPEN.',
  subject: 'contactId',
  payload: fields({
    ...alert,
    status: oneOf(['OPEN', 'CONFIRMED', 'DISMISSED'], { description: 'CONFIRMED: decided a true match; DISMISSED: decided a false positive.' }),
  }),
  example: { ...ids, monitoringAlertId: 'mal_01JD0000000000000000000000', categories: ['SANCTIONS'], status: 'DISMISSED' },
});

export const monitoringSubscriptionEnabled = defineEvent({
  type: 'monitoring.subscription.enabled',
  category: 'MONITORING',
  description: 'The contact is confirmed monitored.',
  subject: 'contactId',
  payload: fields({ ...subject, coverage: coverage('What the contact is screened against.') }),
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
  payload: fields({
    ...subject,
    requestedCoverage: coverage('The coverage you asked for.'),
    observedCoverage: coverage('The coverage actually running.'),
  }),
  example: { ...ids, requestedCoverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'], observedCoverage: ['SANCTIONS', 'PEP'] },
});

export const monitoringSubscriptionError = defineEvent({
  type: 'monitoring.subscription.error',
  category: 'MONITORING',
  description: 'The subscription is in error; the contact is not reliably monitored until an enabled event follows.',
  subject: 'contactId',
  payload: fields({
    ...subject,
    errorCode: oneOf(['NO_LIST_LOADED', 'SCREENING_FAILED'], {
      description: 'NO_LIST_LOADED: no sanctions or PEP list is loaded; SCREENING_FAILED: a re-screen failed and is being retried.',
    }),
  }),
  example: { ...ids, errorCode: 'NO_LIST_LOADED' },
});

/** In the order the reference lists them. */
export const monitoringEvents = [monitoringAlertCreated, monitoringAlertUpdated, monitoringSubscriptionEnabled, monitoringSubscriptionDisabled, monitoringSubscriptionCoverageMismatch, monitoringSubscriptionError] as const;
