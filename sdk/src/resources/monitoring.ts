// /v1/monitoring (docs/monitoring.md): the alerts screening opens. A contact's own monitoring settings
// are at pvs.contacts.monitoring, as their path is.
import { path, type Api } from '../api.ts';
import type { AnswerOf, BodyOf, ItemOf, PageOf, QueryOf, RequestOptions } from '../types.ts';

export function createMonitoring(api: Api) {
  return {
    alerts: {
      retrieve: (id: string, options?: RequestOptions) => api.request<AnswerOf<'getMonitoringAlert'>>({ method: 'GET', path: path`/v1/monitoring/alerts/${id}`, options }),
      list: (query: QueryOf<'listMonitoringAlerts'> = {}, options?: RequestOptions) =>
        api.list<ItemOf<'listMonitoringAlerts'>, PageOf<'listMonitoringAlerts'>>('/v1/monitoring/alerts', query, options),
      decide: (id: string, body: BodyOf<'decideMonitoringAlert'>, options?: RequestOptions) =>
        api.request<AnswerOf<'decideMonitoringAlert'>>({ method: 'POST', path: path`/v1/monitoring/alerts/${id}/decision`, json: body, options }),
    },
  };
}
