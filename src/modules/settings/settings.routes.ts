// Runtime settings for PVS operators (docs/operators.md "Runtime settings"), behind the ops guard.
import { Type } from '@sinclair/typebox';
import type { OpsApi } from '../../platform/http/ops-api.ts';
import { runtimeSettingNames, type RuntimeSettings } from './runtime-settings.ts';

const Setting = Type.Object(
  {
    name: Type.String(),
    value: Type.Boolean(),
    source: Type.Union([Type.Literal('RUNTIME'), Type.Literal('ENVIRONMENT')], { description: 'RUNTIME: an operator set it; ENVIRONMENT: the value the process started with.' }),
    description: Type.String(),
    environmentValue: Type.Boolean(),
    changedBy: Type.Union([Type.String(), Type.Null()]),
    changedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'RuntimeSetting' },
);

const NameParams = Type.Object({ name: Type.String({ maxLength: 64, description: `One of ${runtimeSettingNames.join(', ')}.` }) });

export function registerSettingsRoutes(api: OpsApi, deps: { settings: RuntimeSettings }): void {
  const tags = ['operators'];
  api.get(
    '/settings',
    { schema: { tags, summary: 'Runtime settings and where each value comes from', operationId: 'listRuntimeSettings', response: { 200: Type.Object({ data: Type.Array(Setting) }) } } },
    async () => ({ data: await deps.settings.list() }),
  );

  api.put(
    '/settings/:name',
    {
      schema: {
        tags,
        summary: 'Change a runtime setting now, on every node',
        description: 'The value wins over the environment until it is reset (DELETE). No restart: every node reads it on use. Unknown name: 404.',
        operationId: 'setRuntimeSetting',
        params: NameParams,
        body: Type.Object({ value: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Setting },
      },
    },
    async (request) => deps.settings.set(request.params.name, request.body.value, request.operator.operatorId),
  );

  api.delete(
    '/settings/:name',
    {
      schema: {
        tags,
        summary: 'Reset a runtime setting to the environment’s value',
        operationId: 'resetRuntimeSetting',
        params: NameParams,
        response: { 200: Setting },
      },
    },
    async (request) => deps.settings.reset(request.params.name),
  );
}
