// Admin commands: what `pvs partner create` and friends do. The same function runs in the CLI process
// (PostgreSQL, or an embedded database nobody else holds) or inside the running server, reached over
// its loopback-only admin endpoint (an embedded database the server holds; PGlite allows one process).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CreatePartnerInput } from '../modules/partners/partners.schemas.ts';
import { CreateOperatorInput, OperatorEmail } from '../modules/operators/operators.schemas.ts';
import type { CreateDestinationBody } from '../modules/webhooks/webhooks.schemas.ts';
import '../platform/schema-formats.ts';
import { tenantOf } from '../platform/tenancy.ts';
import { importAsicDataset } from '../providers/register/asic-dataset/asic-dataset-import.ts';
import { resetSecondFactor } from './reset-second-factor.ts';
import { keyStatus } from '../platform/keys/key-usage.ts';
import type { Services } from '../services.ts';

export interface AdminCommand<S extends TSchema = TSchema> {
  name: string;
  input: S;
  /** The `pvs` option (or argument) each input field comes from, so a refusal names what the operator typed. */
  options: Record<string, string>;
  run(services: Services, input: Static<S>): Promise<unknown>;
  /**
   * What the command does when the CLI runs it in its own process, without a server: no warm state to
   * reuse. Absent: `run`.
   */
  runLocally?(services: Services, input: Static<S>): Promise<unknown>;
}

/** Linux's PATH_MAX: no longer path can be opened. */
const maxPathLength = 4096;
/** How messages name the `<file>` argument of `pvs screening import` and `pvs registers import-asic`. */
export const fileArgument = 'the file path';

function command<S extends TSchema>(c: AdminCommand<S>): AdminCommand<S> {
  return c;
}

export const adminCommands: Record<string, AdminCommand> = {
  'partner-create': command({
    name: 'partner-create',
    input: CreatePartnerInput,
    options: { name: '--name', monitoring: '--monitoring', commissionBps: '--commission-bps' },
    run: (services, input) => services.partners.create(input),
  }),
  'operator-create': command({
    name: 'operator-create',
    input: CreateOperatorInput,
    options: { email: '--email' },
    run: (services, input) => services.operators.create(input),
  }),
  'operator-disable': command({
    name: 'operator-disable',
    input: CreateOperatorInput,
    options: { email: '--email' },
    run: (services, input) => services.operators.disable(input),
  }),
  'operator-reset-mfa': command({
    name: 'operator-reset-mfa',
    input: CreateOperatorInput,
    options: { email: '--email' },
    run: (services, input) => resetSecondFactor(services, 'operator', input.email),
  }),
  'portal-user-create': command({
    name: 'portal-user-create',
    input: Type.Object({ partnerId: Type.String({ minLength: 1, maxLength: 64 }), email: OperatorEmail }, { additionalProperties: false }),
    options: { partnerId: '--partner', email: '--email' },
    run: (services, input) => services.portalUsers.create(input),
  }),
  'portal-user-disable': command({
    name: 'portal-user-disable',
    input: Type.Object({ email: OperatorEmail }, { additionalProperties: false }),
    options: { email: '--email' },
    run: (services, input) => services.portalUsers.disable(input.email),
  }),
  'portal-user-reset-mfa': command({
    name: 'portal-user-reset-mfa',
    input: Type.Object({ email: OperatorEmail }, { additionalProperties: false }),
    options: { email: '--email' },
    run: (services, input) => resetSecondFactor(services, 'portalUser', input.email),
  }),
  'destination-create': command({
    name: 'destination-create',
    input: Type.Object(
      {
        partnerId: Type.String({ maxLength: 64 }),
        url: Type.String({ maxLength: 2048 }),
        // Which categories exist is the destinations service's to say (assertCategories).
        categories: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
      },
      { additionalProperties: false },
    ),
    options: { partnerId: '--partner', url: '--url', categories: '--categories' },
    run: async (services, input) => {
      const tenant = tenantOf(input.partnerId);
      await services.partners.getOwn(tenant);
      if (input.categories) services.destinations.assertCategories(input.categories);
      const url = await services.destinations.checkUrl(input.url);
      const created = await services.db.transaction((tx) =>
        services.destinations.create(tx, tenant, { url, categories: input.categories as CreateDestinationBody['categories'] }),
      );
      return { id: created.id, secret: created.secret, url: created.url, categories: created.categories };
    },
  }),
  'screening-import': command({
    name: 'screening-import',
    input: Type.Object(
      {
        format: Type.Union([Type.Literal('dfat'), Type.Literal('opensanctions'), Type.Literal('csv')]),
        // Absolute: the server reading it may have another working directory. Loopback only, so the same machine.
        filePath: Type.String({ minLength: 1, maxLength: maxPathLength }),
        list: Type.Optional(Type.String({ maxLength: 40, pattern: '^[a-z0-9][a-z0-9-]{0,39}$' })),
      },
      { additionalProperties: false },
    ),
    options: { format: '--format', filePath: fileArgument, list: '--list' },
    run: (services, input) => services.screening.importList(input),
  }),
  'screening-search': command({
    name: 'screening-search',
    input: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 300 }),
        kind: Type.Optional(Type.Union([Type.Literal('person'), Type.Literal('business')])),
        dateOfBirth: Type.Optional(Type.String({ maxLength: 10, format: 'date' })),
        country: Type.Optional(Type.String({ maxLength: 2, pattern: '^[A-Z]{2}$' })),
      },
      { additionalProperties: false },
    ),
    options: { name: '--name', kind: '--kind', dateOfBirth: '--dob', country: '--country' },
    run: (services, input) => services.screening.search(input),
    // Building the index of a whole list for one query would take seconds: read only its candidates.
    runLocally: (services, input) => services.screening.searchOnce(input),
  }),
  'keys-status': command({
    name: 'keys-status',
    input: Type.Object({}, { additionalProperties: false }),
    options: {},
    run: (services) => keyStatus(services.db, services.keyRing),
  }),
  'keys-rotate-signing': command({
    name: 'keys-rotate-signing',
    input: Type.Object({}, { additionalProperties: false }),
    options: {},
    run: (services) => services.keys.rotate(),
  }),
  'screening-status': command({
    name: 'screening-status',
    input: Type.Object({}, { additionalProperties: false }),
    options: {},
    run: (services) => services.screening.status(),
  }),
  'registers-import-asic': command({
    name: 'registers-import-asic',
    input: Type.Object(
      {
        // Absolute: the server reading it may have another working directory. Loopback only, so the same machine.
        filePath: Type.String({ minLength: 1, maxLength: maxPathLength }),
      },
      { additionalProperties: false },
    ),
    options: { filePath: fileArgument },
    run: (services, input) => importAsicDataset(services.db, input.filePath, services.clock),
  }),
  'setting-set': command({
    name: 'setting-set',
    input: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), value: Type.Boolean() }, { additionalProperties: false }),
    options: { name: 'the setting name', value: 'the value (true or false)' },
    run: (services, input) => services.settings.set(input.name, input.value, 'cli'),
  }),
  'setting-reset': command({
    name: 'setting-reset',
    input: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    options: { name: 'the setting name' },
    run: (services, input) => services.settings.reset(input.name),
  }),
  'setting-list': command({
    name: 'setting-list',
    input: Type.Object({}, { additionalProperties: false }),
    options: {},
    run: async (services) => ({ data: await services.settings.list() }),
  }),
  migrate: command({
    name: 'migrate',
    input: Type.Object({}, { additionalProperties: false }),
    options: {},
    // The server migrated at start; asking it confirms there is nothing left to apply.
    run: async (services) => ({ applied: (await services.migrate()).applied }),
  }),
};
