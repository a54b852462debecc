import type { PartnerApi } from '../../platform/http/partner-api.ts';
import { Page } from '../../platform/http/pagination.ts';
import type { AlertService } from './alerts.service.ts';
import { Alert, AlertListQuery, AlertParams, ContactParams, DecisionBody, PutSubscriptionBody, Subscription } from './monitoring.schemas.ts';
import type { SubscriptionService } from './subscriptions.service.ts';

const eligibility = 'Only for partners eligible for monitoring (`monitoringEligible` on /v1/channel-partners/me); others get 403 FORBIDDEN.';

export function registerMonitoringRoutes(api: PartnerApi, deps: { subscriptions: SubscriptionService; alerts: AlertService }): void {
  const tags = ['monitoring'];
  const { subscriptions, alerts } = deps;

  api.get(
    '/contacts/:id/monitoring',
    {
      schema: {
        tags,
        summary: 'A contact’s monitoring subscription',
        description: `A contact never subscribed answers enabled false, status DISABLED. ${eligibility}`,
        operationId: 'getContactMonitoring',
        params: ContactParams,
        response: { 200: Subscription },
      },
    },
    async (request) => subscriptions.get(request.tenant, request.params.id),
  );

  api.put(
    '/contacts/:id/monitoring',
    {
      schema: {
        tags,
        summary: 'Switch monitoring on or off for a contact',
        description: `enabled true (with coverage) screens the contact at once and after every new list version; monitoring.subscription.enabled follows when the first screening has run (status PENDING until then), with coverage_mismatch when the lists cannot cover what you asked (ADVERSE_MEDIA has no source). The contact’s name is screened as screenAs says: against people and businesses alike unless you narrow it (ANY by default). enabled false stops it at once (monitoring.subscription.disabled). Sending the same settings again changes nothing and sends nothing. An archived contact cannot be enabled (409 INVALID_STATE). ${eligibility}`,
        operationId: 'putContactMonitoring',
        params: ContactParams,
        body: PutSubscriptionBody,
        response: { 200: Subscription },
      },
    },
    async (request) => subscriptions.put(request.tenant, request.params.id, request.body),
  );

  api.get(
    '/monitoring/alerts',
    {
      schema: {
        tags,
        summary: 'List monitoring alerts, newest first',
        description: eligibility,
        operationId: 'listMonitoringAlerts',
        querystring: AlertListQuery,
        response: { 200: Page(Alert) },
      },
    },
    async (request) => alerts.list(request.tenant, request.query),
  );

  api.get(
    '/monitoring/alerts/:id',
    {
      schema: {
        tags,
        summary: 'One monitoring alert, with the list entry it matched',
        description: `The match detail to decide it: the list entry as the matched version held it, its categories, the score and what drove it. ${eligibility}`,
        operationId: 'getMonitoringAlert',
        params: AlertParams,
        response: { 200: Alert },
      },
    },
    async (request) => alerts.get(request.tenant, request.params.id),
  );

  api.post(
    '/monitoring/alerts/:id/decision',
    {
      schema: {
        tags,
        summary: 'Decide an open alert',
        description: `TRUE_MATCH → CONFIRMED, FALSE_POSITIVE → DISMISSED, with monitoring.alert.updated. An alert is decided once: a second decision is 409 INVALID_STATE. ${eligibility}`,
        operationId: 'decideMonitoringAlert',
        params: AlertParams,
        body: DecisionBody,
        response: { 200: Alert },
      },
    },
    async (request) => alerts.decide(request.tenant, request.params.id, request.body, { kind: 'PARTNER', apiClientId: request.apiClientId }),
  );
}
