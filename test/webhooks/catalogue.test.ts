// The event catalogue against SPEC ("Events") and CONTRACT: every type in its category, SPEC's
// payload fields where SPEC gives them, no personal data where SPEC forbids it, closed schemas,
// valid examples; and docs/events.md exactly as the generator writes it now, so it cannot drift.
import '../../src/platform/schema-formats.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { eventDocsPath, fieldRows, renderEventDocs } from '../../scripts/generate-event-docs.ts';
import { notificationBody } from '../../src/modules/webhooks/body.ts';
import * as catalogueModule from '../../src/modules/webhooks/events/index.ts';
import { categories, eventCatalogue, findEventDefinition } from '../../src/modules/webhooks/events/index.ts';
import { findTestDefinition, testVariants } from '../../src/modules/webhooks/notifications.service.ts';
import type { EventDefinition } from '../../src/platform/outbox.ts';

// SPEC's event tables, category by category, plus CONTRACT 5's business-lookup.failed and PVS's own
// contact.billing.voided (SPEC allows new types; receivers ignore those they do not know).
const specTypes: Record<string, string[]> = {
  PAYMENTS: ['payment.created', 'payment.processing', 'payment.succeeded', 'payment.failed', 'payment.cancelled', 'payment.link_regenerated'],
  VERIFICATIONS: [
    'verification.request.created',
    'verification.individual.added',
    'verification.individual.in_progress',
    'verification.individual.passed',
    'verification.individual.failed',
    'verification.individual.manual_review',
    'verification.individual.locked_out',
    'verification.request.completed',
  ],
  BUSINESS_LOOKUPS: ['business-lookup.completed', 'business-lookup.failed'],
  CONTACT_BILLING: [
    'contact.card.saved',
    'contact.card.removed',
    'contact.billing.run_created',
    'contact.billing.captured',
    'contact.billing.failed',
    'contact.billing.voided',
  ],
  DEED_ANALYSIS: ['deed-analysis.completed', 'deed-analysis.failed'],
  MONITORING: [
    'monitoring.alert.created',
    'monitoring.alert.updated',
    'monitoring.subscription.enabled',
    'monitoring.subscription.disabled',
    'monitoring.subscription.coverage_mismatch',
    'monitoring.subscription.error',
  ],
};

// The prefixes POST /v1/webhook-notifications/test accepts (CONTRACT 10).
const testPrefixes = ['payment', 'verification', 'business-lookup', 'contact', 'deed-analysis', 'monitoring'];

// Field names that must never appear, at any depth. Verification events: no first or last name, email or
// phone (SPEC), nor anything else that identifies the person. Monitoring events: no name, entity id,
// article snippet, URL or raw match record (SPEC).
const forbiddenInVerifications = /name|email|phone|mobile|birth|dob|address/i;
const forbiddenInMonitoring = /name|entityid|entryid|snippet|article|url|uri|link|match|raw|source|quote|excerpt/i;

type JsonSchema = TSchema & Record<string, unknown>;

function definition(type: string): EventDefinition {
  const found = findEventDefinition(type);
  assert.ok(found, `${type} is in the catalogue`);
  return found;
}

/** Every object schema reachable from `schema`, with the path that reaches it. */
function objectSchemas(schema: JsonSchema, path = ''): Array<{ path: string; schema: JsonSchema }> {
  const found: Array<{ path: string; schema: JsonSchema }> = [];
  if (schema.type === 'object') found.push({ path: path || '(payload)', schema });
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) found.push(...objectSchemas(child, `${path}/${name}`));
  for (const [pattern, child] of Object.entries((schema.patternProperties ?? {}) as Record<string, JsonSchema>)) {
    found.push(...objectSchemas(child, `${path}/{${pattern}}`));
  }
  if (schema.items) found.push(...objectSchemas(schema.items as JsonSchema, `${path}/[]`));
  for (const child of (schema.anyOf ?? []) as JsonSchema[]) found.push(...objectSchemas(child, path));
  return found;
}

/** Every property name at any depth, as a path: `parties/[]/firstName`. */
function fieldPaths(schema: JsonSchema): string[] {
  return objectSchemas(schema).flatMap(({ path, schema: object }) =>
    Object.keys((object.properties ?? {}) as object).map((name) => `${path === '(payload)' ? '' : path}/${name}`.replace(/^\//, '')),
  );
}

function lastSegment(path: string): string {
  return path.split('/').at(-1)!;
}

/** A top-level object's required and optional property names, sorted. */
function shape(schema: TSchema): { required: string[]; optional: string[] } {
  const names = Object.keys((schema as JsonSchema).properties as object);
  const required = new Set(((schema as JsonSchema).required ?? []) as string[]);
  return { required: names.filter((n) => required.has(n)).sort(), optional: names.filter((n) => !required.has(n)).sort() };
}

function property(schema: TSchema, name: string): JsonSchema {
  const found = ((schema as JsonSchema).properties as Record<string, JsonSchema> | undefined)?.[name];
  assert.ok(found, `property ${name}`);
  return found;
}

/** The property's schema without a `| null`. */
function nonNull(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  const others = anyOf?.filter((s) => s.type !== 'null');
  return others && others.length === 1 ? others[0]! : schema;
}

describe('the event types', () => {
  it('are exactly the types SPEC names, plus business-lookup.failed and contact.billing.voided, each once and in its category', () => {
    assert.deepEqual([...categories], Object.keys(specTypes));
    const types = eventCatalogue.map((d) => d.type);
    assert.equal(new Set(types).size, types.length, 'no type is declared twice');
    assert.deepEqual([...types].sort(), Object.values(specTypes).flat().sort());
    for (const [category, expected] of Object.entries(specTypes)) {
      assert.deepEqual(
        eventCatalogue.filter((d) => d.category === category).map((d) => d.type).sort(),
        [...expected].sort(),
        `category ${category}`,
      );
    }
  });

  it('lists every event definition the catalogue module exports', () => {
    const exported = (Object.values(catalogueModule) as unknown[]).filter(
      (value): value is EventDefinition => typeof value === 'object' && value !== null && 'type' in value && 'payload' in value,
    );
    assert.equal(exported.length, eventCatalogue.length);
    for (const d of exported) assert.ok(eventCatalogue.includes(d), `${d.type} is in eventCatalogue`);
  });

  it('describe when each is sent, name a required string subject, and seal only deed analysis results', () => {
    for (const d of eventCatalogue) {
      assert.ok(d.description && d.description.length > 10, `${d.type} has a description`);
      assert.ok(d.subject, `${d.type} names its subject`);
      assert.ok(shape(d.payload).required.includes(d.subject), `${d.type}: subject ${d.subject} is required`);
      assert.equal(property(d.payload, d.subject).type, 'string', `${d.type}: subject is a string`);
      assert.equal(Boolean(d.sealed), d.category === 'DEED_ANALYSIS', `${d.type} sealed`);
    }
  });

  it('can each be sampled by POST /v1/webhook-notifications/test with a prefix and a variant', () => {
    for (const d of eventCatalogue) {
      const prefix = testPrefixes.find((p) => d.type.startsWith(`${p}.`));
      assert.ok(prefix, `${d.type} has a test prefix`);
      const variant = d.type.slice(prefix.length + 1).replace(/\./g, '_');
      assert.ok(testVariants(prefix).includes(variant), `${d.type}: ${prefix} + ${variant}`);
      assert.equal(findTestDefinition(prefix, variant), d);
    }
    assert.deepEqual(testVariants('monitoring').sort(), [
      'alert_created',
      'alert_updated',
      'subscription_coverage_mismatch',
      'subscription_disabled',
      'subscription_enabled',
      'subscription_error',
    ]);
  });
});

describe('the payload schemas', () => {
  it('are closed at every depth: an object refuses fields it does not name', () => {
    for (const d of eventCatalogue) {
      const objects = objectSchemas(d.payload as JsonSchema);
      assert.ok(objects.length > 0, d.type);
      for (const { path, schema } of objects) {
        if (schema.patternProperties) {
          // A map of the partner's own keys (payment metadata): its values are strings, nothing nested.
          for (const value of Object.values(schema.patternProperties as Record<string, JsonSchema>)) assert.equal(value.type, 'string', `${d.type} ${path}`);
          continue;
        }
        assert.equal(schema.additionalProperties, false, `${d.type} ${path} has additionalProperties: false`);
      }
      // The check bites: an extra field is refused.
      assert.equal(Value.Check(d.payload, { ...(d.example as object), extra: 'x' }), false, `${d.type} refuses an unknown field`);
    }
  });

  it('never use the names of the envelope fields (type, eventId, occurredAt, test)', () => {
    for (const d of eventCatalogue) {
      for (const name of ['type', 'eventId', 'occurredAt', 'test']) assert.ok(!(name in ((d.payload as JsonSchema).properties as object)), `${d.type}: ${name}`);
    }
  });

  it('describe every field, nested ones included', () => {
    for (const d of eventCatalogue) {
      for (const row of fieldRows(d.payload)) assert.ok(row.description.length > 0, `${d.type}: ${row.name} has a description`);
    }
  });

  it('have an example that validates (formats included) and reads back unchanged from the delivered body', () => {
    for (const d of eventCatalogue) {
      assert.ok(d.example !== undefined, `${d.type} has an example`);
      const errors = [...Value.Errors(d.payload, d.example)].map((e) => `${e.path}: ${e.message}`);
      assert.deepEqual(errors, [], d.type);
      const body = JSON.parse(
        notificationBody({ id: 'evt_01JD0000000000000000000000', type: d.type, occurredAt: new Date(0), payload: d.example as Record<string, unknown>, test: false }),
      ) as Record<string, unknown>;
      const { type, eventId, occurredAt, ...own } = body;
      assert.deepEqual({ type, eventId, occurredAt }, { type: d.type, eventId: 'evt_01JD0000000000000000000000', occurredAt: '1970-01-01T00:00:00.000Z' });
      assert.deepEqual(own, d.example);
    }
  });

  it('refuse a timestamp that is not a date-time (formats are checked, so the examples’ are meaningful)', () => {
    const passed = definition('verification.individual.passed');
    assert.equal(Value.Check(passed.payload, { ...(passed.example as object), completedAt: 'yesterday' }), false);
  });
});

describe('SPEC’s payload fields', () => {
  it('business-lookup.completed: lookupRequestId, channelPartnerId, entity {name, type}, individuals[] of {idvEntityId} only', () => {
    const { payload } = definition('business-lookup.completed');
    assert.deepEqual(shape(payload), { required: ['channelPartnerId', 'entity', 'individuals', 'lookupRequestId'], optional: [] });
    assert.deepEqual(shape(property(payload, 'entity')), { required: ['name', 'type'], optional: [] });
    const individuals = property(payload, 'individuals');
    assert.equal(individuals.type, 'array');
    assert.deepEqual(shape(individuals.items as TSchema), { required: ['idvEntityId'], optional: [] });
    // Always present, may be empty.
    const example = definition('business-lookup.completed').example as Record<string, unknown>;
    assert.equal(Value.Check(payload, { ...example, individuals: [] }), true);
    assert.equal(Value.Check(payload, { ...example, individuals: [{ idvEntityId: 'ent_1', role: 'DIRECTOR' }] }), false, 'no roles');
    const { individuals: _omitted, ...withoutIndividuals } = example;
    assert.equal(Value.Check(payload, withoutIndividuals), false, 'individuals is always present');
  });

  it('business-lookup.failed (CONTRACT 5): lookupRequestId, channelPartnerId, failureReason', () => {
    const { payload } = definition('business-lookup.failed');
    assert.deepEqual(shape(payload), { required: ['channelPartnerId', 'failureReason', 'lookupRequestId'], optional: [] });
    for (const reason of ['NOT_FOUND', 'IDENTIFIER_MISMATCH', 'REGISTER_UNAVAILABLE']) {
      assert.equal(Value.Check(payload, { lookupRequestId: 'lkp_1', channelPartnerId: 'ptn_1', failureReason: reason }), true, reason);
    }
  });

  it('verification.individual.passed: ids, status, manualOverride, attemptCount, completedAt (and externalId when given)', () => {
    const { payload } = definition('verification.individual.passed');
    assert.deepEqual(shape(payload), {
      required: ['attemptCount', 'completedAt', 'individualId', 'manualOverride', 'status', 'verificationRequestId'],
      optional: ['externalId'],
    });
    assert.equal(property(payload, 'manualOverride').type, 'boolean');
    assert.equal(property(payload, 'attemptCount').type, 'integer');
    assert.equal(property(payload, 'completedAt').format, 'date-time');
    const base = { verificationRequestId: 'ver_1', individualId: 'ind_1', manualOverride: true, attemptCount: 1, completedAt: '2026-01-01T00:00:00.000Z' };
    assert.equal(Value.Check(payload, { ...base, status: 'MANUALLY_PASSED' }), true);
    assert.equal(Value.Check(payload, { ...base, status: 'FAILED' }), false);
  });

  it('verification.individual.manual_review: ids and status MANUAL_REVIEW', () => {
    const { payload } = definition('verification.individual.manual_review');
    assert.deepEqual(shape(payload), { required: ['individualId', 'status', 'verificationRequestId'], optional: ['externalId'] });
    assert.equal(property(payload, 'status').const, 'MANUAL_REVIEW');
  });

  it('verification.individual.locked_out: ids, status LOCKED_OUT, attemptCount, maxAttempts', () => {
    const { payload } = definition('verification.individual.locked_out');
    assert.deepEqual(shape(payload), { required: ['attemptCount', 'individualId', 'maxAttempts', 'status', 'verificationRequestId'], optional: ['externalId'] });
    assert.equal(property(payload, 'status').const, 'LOCKED_OUT');
    assert.equal(property(payload, 'attemptCount').type, 'integer');
    assert.equal(property(payload, 'maxAttempts').type, 'integer');
  });

  it('every verification individual event carries verificationRequestId and individualId (the de-duplication key with type and occurredAt)', () => {
    for (const d of eventCatalogue.filter((e) => e.type.startsWith('verification.individual.'))) {
      const { required, optional } = shape(d.payload);
      assert.ok(required.includes('verificationRequestId') && required.includes('individualId'), d.type);
      assert.ok(optional.includes('externalId'), `${d.type} exposes externalId when given`);
    }
  });

  it('payment events: id, amount, status, commissionAmount, metadata (and newUrl on link_regenerated)', () => {
    for (const type of specTypes.PAYMENTS!) {
      const { payload } = definition(type);
      const extra = type === 'payment.link_regenerated' ? ['newUrl'] : [];
      assert.deepEqual(shape(payload), { required: ['amount', 'commissionAmount', 'id', 'metadata', 'status', ...extra].sort(), optional: [] }, type);
      assert.equal(property(payload, 'amount').type, 'integer', type);
      assert.equal(property(payload, 'commissionAmount').type, 'integer', type);
      assert.equal(property(payload, 'metadata').type, 'object', type);
    }
  });

  it('contact billing events carry contactId and channelPartnerId; billing.failed its decline detail', () => {
    for (const type of specTypes.CONTACT_BILLING!) {
      const { required } = shape(definition(type).payload);
      assert.ok(required.includes('contactId') && required.includes('channelPartnerId'), type);
    }
    const { required } = shape(definition('contact.billing.failed').payload);
    for (const name of ['failureReason', 'merchantAdviceCode', 'nextRetryAt']) assert.ok(required.includes(name), name);
  });

  it('contact.billing.voided: the run, amount 0 and how many charges were voided', () => {
    const { payload } = definition('contact.billing.voided');
    assert.deepEqual(shape(payload), { required: ['amount', 'billingRunId', 'channelPartnerId', 'contactId', 'voidedChargeCount'], optional: [] });
    const example = definition('contact.billing.voided').example as Record<string, unknown>;
    assert.equal(Value.Check(payload, { ...example, amount: 1500 }), false, 'a voided run owes nothing');
  });

  it('deed-analysis.completed: trust, parties and beneficiaryClasses in SPEC’s shape, and never a date of birth', () => {
    const { payload } = definition('deed-analysis.completed');
    assert.deepEqual(shape(payload), { required: ['beneficiaryClasses', 'deedAnalysisId', 'parties', 'trust', 'verificationRequestId'], optional: [] });
    assert.deepEqual(shape(nonNull(property(payload, 'trust'))), {
      required: ['abn', 'establishedDate', 'jurisdiction', 'name', 'trustType', 'vestingDate'],
      optional: [],
    });
    const party = property(payload, 'parties').items as JsonSchema;
    assert.deepEqual(shape(party), {
      required: ['abn', 'acn', 'address', 'businessName', 'confidence', 'firstName', 'lastName', 'partyKind', 'role', 'sourcePage', 'sourceQuote'].sort(),
      optional: [],
    });
    assert.deepEqual(shape(nonNull(property(party, 'address'))), { required: ['full'], optional: [] });
    assert.equal(property(party, 'sourcePage').type, 'integer');
    const example = definition('deed-analysis.completed').example as Record<string, unknown>;
    assert.equal(Value.Check(payload, { ...example, trust: null }), true, 'trust is null when the deed does not name it');
    assert.ok(!fieldPaths(payload as JsonSchema).some((p) => /birth|dob/i.test(p)));
  });

  it('deed-analysis.failed: failureReason and no extracted detail', () => {
    const { payload } = definition('deed-analysis.failed');
    assert.deepEqual(shape(payload), { required: ['deedAnalysisId', 'failureReason', 'verificationRequestId'], optional: [] });
    for (const reason of ['OCR_FAILED', 'TFN_CONTENT_DETECTED', 'EXTRACTION_INVALID_OUTPUT', 'ANALYSIS_UNAVAILABLE', 'TIMED_OUT']) {
      assert.equal(Value.Check(payload, { deedAnalysisId: 'dda_1', verificationRequestId: null, failureReason: reason }), true, reason);
    }
  });

  it('monitoring events carry contactId and product; alert-created and coverage-mismatch their SPEC fields', () => {
    for (const type of specTypes.MONITORING!) {
      const { required } = shape(definition(type).payload);
      assert.ok(required.includes('contactId') && required.includes('product'), type);
    }
    const created = definition('monitoring.alert.created').payload;
    assert.deepEqual(shape(created), { required: ['categories', 'contactId', 'monitoringAlertId', 'product', 'status'], optional: [] });
    assert.equal(property(created, 'status').const, 'OPEN');
    assert.equal(property(created, 'categories').type, 'array');
    assert.equal((property(created, 'categories').items as JsonSchema).type, 'string');
    const mismatch = definition('monitoring.subscription.coverage_mismatch').payload;
    assert.deepEqual(shape(mismatch), { required: ['contactId', 'observedCoverage', 'product', 'requestedCoverage'], optional: [] });
  });
});

describe('personal data', () => {
  it('the field walker sees nested fields (so the checks below can fail)', () => {
    const deed = fieldPaths(definition('deed-analysis.completed').payload as JsonSchema);
    assert.ok(deed.includes('parties/[]/firstName'), deed.join(', '));
    assert.ok(deed.includes('parties/[]/address/full'), deed.join(', '));
    assert.ok(fieldPaths(definition('business-lookup.completed').payload as JsonSchema).includes('individuals/[]/idvEntityId'));
  });

  it('no verification event has a field for a name, email, phone, birth date or address, at any depth', () => {
    const verifications = eventCatalogue.filter((d) => d.category === 'VERIFICATIONS');
    assert.equal(verifications.length, specTypes.VERIFICATIONS!.length);
    for (const d of verifications) {
      const paths = fieldPaths(d.payload as JsonSchema);
      assert.deepEqual(paths.filter((p) => forbiddenInVerifications.test(lastSegment(p))), [], d.type);
    }
  });

  it('no monitoring event has a field for a name, entity id, snippet, URL or raw match, at any depth, nor a URL anywhere', () => {
    const monitoring = eventCatalogue.filter((d) => d.category === 'MONITORING');
    assert.equal(monitoring.length, specTypes.MONITORING!.length);
    for (const d of monitoring) {
      const paths = fieldPaths(d.payload as JsonSchema);
      assert.deepEqual(paths.filter((p) => forbiddenInMonitoring.test(lastSegment(p))), [], d.type);
      const formats = objectSchemas(d.payload as JsonSchema).flatMap(({ schema }) =>
        Object.values((schema.properties ?? {}) as Record<string, JsonSchema>).map((p) => nonNull(p).format),
      );
      assert.ok(!formats.includes('uri') && !formats.includes('url'), d.type);
      assert.doesNotMatch(JSON.stringify(d.example), /https?:\/\//, d.type);
    }
  });
});

describe('docs/events.md', () => {
  it('is exactly what scripts/generate-event-docs.ts writes from the catalogue now (run `npm run docs:events`)', () => {
    const onDisk = readFileSync(eventDocsPath, 'utf8');
    const generated = renderEventDocs();
    if (onDisk !== generated) {
      const [a, b] = [onDisk.split('\n'), generated.split('\n')];
      const line = a.findIndex((l, i) => l !== b[i]);
      assert.fail(`docs/events.md is out of date from line ${line + 1} (run \`npm run docs:events\`):\n  on disk:   ${a[line]}\n  generated: ${b[line]}`);
    }
  });

  it('documents every type, with its fields and its example body as delivered', () => {
    const docs = renderEventDocs();
    for (const d of eventCatalogue) {
      assert.ok(docs.includes(`\n### ${d.type}\n`), `${d.type} has a section`);
      const body = notificationBody({
        id: 'evt_01JD0000000000000000000000',
        type: d.type,
        occurredAt: new Date('2026-11-21T10:20:00.000Z'),
        payload: d.example as Record<string, unknown>,
        test: false,
      });
      assert.ok(docs.includes(`\n${body}\n`), `${d.type}: example body`);
      for (const row of fieldRows(d.payload)) assert.ok(docs.includes(`| \`${row.name}\` |`), `${d.type}: ${row.name}`);
    }
    for (const category of categories) assert.ok(docs.includes(`\n## ${category}\n`), category);
  });

  it('changes when the catalogue does (the comparison above can fail)', () => {
    const [first, ...rest] = eventCatalogue;
    const altered = renderEventDocs([{ ...first!, description: 'Something else entirely.' }, ...rest]);
    assert.notEqual(altered, renderEventDocs());
  });
});
