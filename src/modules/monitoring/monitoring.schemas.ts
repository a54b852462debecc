// Request and response schemas of monitoring subscriptions and alerts: the source of validation, types
// and the OpenAPI document.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';
import { MatchFeaturesSchema } from '../screening/screening.schemas.ts';

const DateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const coverages = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;
export type Coverage = (typeof coverages)[number];
export const subscriptionStatuses = ['PENDING', 'ACTIVE', 'ERROR', 'DISABLED'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export const errorCodes = ['NO_LIST_LOADED', 'SCREENING_FAILED'] as const;
export type SubscriptionErrorCode = (typeof errorCodes)[number];
export const screenAsValues = ['ANY', 'BUSINESS', 'PERSON'] as const;
export type ScreenAs = (typeof screenAsValues)[number];
export const alertStatuses = ['OPEN', 'CONFIRMED', 'DISMISSED'] as const;
export type AlertStatus = (typeof alertStatuses)[number];
export const decisions = ['TRUE_MATCH', 'FALSE_POSITIVE'] as const;
export type Decision = (typeof decisions)[number];

const CoverageList = (description: string) => Type.Array(literals(coverages, 'A kind of list.'), { uniqueItems: true, description });
const Country = Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', 'x-message': 'must be an ISO 3166-1 alpha-2 code in capitals, such as AU', description: 'ISO 3166-1 alpha-2.' });
const DateOfBirth = Type.String({ format: 'date', maxLength: 10, description: 'YYYY-MM-DD; with screenAs ANY or PERSON. It narrows person matches only (evidence for or against), never business ones.' });

export const PutSubscriptionBody = Type.Object(
  {
    enabled: Type.Boolean({ description: 'true monitors the contact; false stops it.' }),
    coverage: Type.Optional(
      Type.Array(literals(coverages, 'A kind of list.'), {
        minItems: 1,
        maxItems: coverages.length,
        uniqueItems: true,
        description: 'What to screen against; required when enabling. ADVERSE_MEDIA has no source in PVS: asking for it is answered with monitoring.subscription.coverage_mismatch.',
      }),
    ),
    screenAs: Type.Optional(literals(screenAsValues, 'How the contact’s name is screened: ANY (the default) against people and businesses alike, each with its own rules; BUSINESS or PERSON to narrow it to one kind.')),
    dateOfBirth: Type.Optional(DateOfBirth),
    countries: Type.Optional(Type.Array(Country, { maxItems: 5, uniqueItems: true, description: 'Countries of citizenship, residence or registration: evidence for or against a match, never a match alone.' })),
  },
  // The contact is a company (Contact's example): screened as a business, so no date of birth.
  { additionalProperties: false, examples: [{ enabled: true, coverage: ['SANCTIONS', 'PEP'], screenAs: 'BUSINESS', countries: ['AU'] }] },
);
export type PutSubscriptionBody = Static<typeof PutSubscriptionBody>;

export const Subscription = Type.Object(
  {
    contactId: Type.String({ description: 'The contact (`con_…`).' }),
    enabled: Type.Boolean(),
    status: literals(
      subscriptionStatuses,
      'DISABLED: not monitored. PENDING: enabled, first screening under way (seconds). ACTIVE: monitored; screened against listVersion. ERROR: enabled, but the last screening could not run (errorCode); not reliably monitored until it is ACTIVE again.',
    ),
    errorCode: nullable(literals(errorCodes, 'NO_LIST_LOADED: no sanctions or PEP list is loaded; SCREENING_FAILED: the re-screen failed and is being retried.'), 'Why the status is ERROR; null otherwise.'),
    coverage: CoverageList('What you asked to screen against.'),
    observedCoverage: nullable(CoverageList('What the lists PVS holds cover of it.'), 'Null until the contact has been screened.'),
    screenAs: literals(screenAsValues, 'How the contact’s name is screened.'),
    dateOfBirth: nullable(Type.String({ format: 'date' }), 'As you gave it (PERSON only).'),
    countries: Type.Array(Type.String()),
    listVersion: nullable(Type.Integer(), 'The list version the contact was last screened against.'),
    lastScreenedAt: nullable(DateTime),
    enabledAt: nullable(DateTime),
    disabledAt: nullable(DateTime),
    updatedAt: nullable(DateTime, 'Null for a contact never subscribed.'),
  },
  {
    $id: 'MonitoringSubscription',
    title: 'MonitoringSubscription',
    examples: [
      {
        contactId: exampleId('contact'),
        enabled: true,
        status: 'ACTIVE',
        errorCode: null,
        coverage: ['SANCTIONS', 'PEP'],
        observedCoverage: ['SANCTIONS', 'PEP'],
        screenAs: 'BUSINESS',
        dateOfBirth: null,
        countries: ['AU'],
        listVersion: 12,
        lastScreenedAt: '2026-11-21T10:35:04.000Z',
        enabledAt: '2026-11-21T10:35:00.000Z',
        disabledAt: null,
        updatedAt: '2026-11-21T10:35:04.000Z',
      },
    ],
  },
);
export type Subscription = Static<typeof Subscription>;

export const ContactParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The contact (`con_…`).' }) });
export const AlertParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The alert (`mal_…`).' }) });

export const AlertListQuery = ListQuery({
  status: Type.Optional(literals(alertStatuses, 'Only alerts in this status.')),
  contactId: Type.Optional(Type.String({ maxLength: 64, description: 'Only this contact’s alerts.' })),
});

const ListEntry = Type.Object(
  {
    list: Type.String({ description: 'The list as PVS imported it (`dfat`, `opensanctions`, …).' }),
    entryId: Type.String({ description: 'The source’s own id (DFAT reference, OpenSanctions id).' }),
    kind: literals(['person', 'business'] as const, 'What the entry names.'),
    name: Type.String(),
    aliases: Type.Array(Type.String()),
    datesOfBirth: Type.Array(Type.String()),
    countries: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
    source: Type.String({ description: 'The programme or list the entry comes from.' }),
  },
  { description: 'The list entry as the version matched held it.' },
);

export const Alert = Type.Object(
  {
    id: Type.String({ description: '`mal_…`' }),
    contactId: Type.String(),
    status: literals(alertStatuses, 'OPEN until decided; CONFIRMED (a true match) or DISMISSED (a false positive).'),
    categories: Type.Array(Type.String(), { description: 'The entry’s categories: SANCTIONS, PEP.' }),
    score: Type.Number({ description: 'The match score in [0, 1].' }),
    listVersion: Type.Integer({ description: 'The list version the match was found in.' }),
    matchedName: Type.String({ description: 'The entry’s name or alias that matched.' }),
    features: MatchFeaturesSchema,
    entry: ListEntry,
    decision: nullable(
      Type.Object({
        decision: literals(decisions, 'TRUE_MATCH or FALSE_POSITIVE.'),
        note: nullable(Type.String(), 'Your note; an operator’s reasons are kept in PVS’s review record.'),
        decidedBy: literals(['PARTNER', 'OPERATOR'] as const, 'You (through the API) or a PVS operator.'),
        decidedAt: DateTime,
      }),
      'Null while OPEN.',
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    $id: 'MonitoringAlert',
    title: 'MonitoringAlert',
    // An open alert on the contact of MonitoringSubscription's example: a similar business name, in another country.
    examples: [
      {
        id: exampleId('monitoringAlert'),
        contactId: exampleId('contact'),
        status: 'OPEN',
        categories: ['SANCTIONS'],
        score: 0.91,
        listVersion: 12,
        matchedName: 'WATTLE CREEK LOGISTICS LLC',
        features: { nameScore: 0.93, matchedTokens: 3, unmatchedTokens: 1, alias: false, dateOfBirth: 'NOT_COMPARED', country: 'MISMATCH', identifier: 'NOT_COMPARED' },
        entry: {
          list: 'dfat',
          entryId: '8841',
          kind: 'business',
          name: 'WATTLE CREEK LOGISTICS LLC',
          aliases: ['WCL Freight LLC'],
          datesOfBirth: [],
          countries: ['KP'],
          categories: ['SANCTIONS'],
          source: 'Autonomous Sanctions Regulations 2011',
        },
        decision: null,
        createdAt: '2026-11-22T02:00:05.000Z',
        updatedAt: '2026-11-22T02:00:05.000Z',
      },
    ],
  },
);
export type Alert = Static<typeof Alert>;

export const DecisionBody = Type.Object(
  {
    decision: literals(decisions, 'TRUE_MATCH confirms the alert; FALSE_POSITIVE dismisses it.'),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Why (≤ 2000 characters).' })),
  },
  { additionalProperties: false, examples: [{ decision: 'FALSE_POSITIVE', note: 'A different company: the listed entity is registered in another country, ours in Australia since 2009.' }] },
);
export type DecisionBody = Static<typeof DecisionBody>;
