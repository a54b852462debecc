// Examples for the partner's OpenAPI document, derived from the same schemas that validate the requests
// and shape the answers, so an example cannot disagree with its schema (test/openapi-contents.test.ts
// validates each against it). A schema's own `examples` (or `example`) wins, and is where a real value
// belongs: a request body's example is one the sandbox accepts as it is (test/openapi-examples.test.ts
// sends each). Otherwise `const`, `default` or `enum`; else the value follows the type, format and
// bounds, and an id takes the prefix its description names (`con_…`), its field's name, or, for a path
// parameter, the collection it names (`/v1/contacts/{id}`).
import { exampleId, type IdKind } from '../ids.ts';

type Json = Record<string, unknown>;

const exampleTime = '2026-11-21T10:20:00.000Z';
/** The id body every generated id shares, as the event examples do (docs/events.md). */
const exampleUlid = exampleId('partner').slice(4);

// The id prefixes of docs/conventions.md, by the field names that carry them.
const idPrefixes: Record<string, string> = {
  channelPartnerId: 'ptn',
  contactId: 'con',
  lookupRequestId: 'lkp',
  verificationRequestId: 'ver',
  individualId: 'ind',
  idvEntityId: 'ent',
  deedAnalysisId: 'dda',
  chargeId: 'chg',
  billingRunId: 'brn',
  paymentId: 'pay',
  notificationId: 'whn',
  eventId: 'evt',
  destinationId: 'whd',
  monitoringAlertId: 'mal',
};
// The sandbox's first test business (docs/lookups.md, "Sandbox identifiers"): identifiers that give a full answer there.
const namedValues: Record<string, string> = { abn: '32111111114', acn: '111111114' };

/** Simple anchored patterns (`^[0-9]{11}$`, `^[0-9a-f]{64}$`) are filled in; others fall back to a plain value. */
function fromPattern(pattern: string): string | undefined {
  const match = /^\^\[([^\]]+)\]\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern);
  if (!match) return undefined;
  const first = match[1]!.startsWith('0-9') ? '4' : match[1]!.startsWith('A-Z') ? 'A' : match[1]!.startsWith('a-z') ? 'a' : match[1]!.slice(0, 1);
  return first.repeat(Number(match[2]));
}

function stringExample(schema: Json, name: string): string {
  const format = schema.format as string | undefined;
  if (format === 'date-time') return exampleTime;
  if (format === 'date') return exampleTime.slice(0, 10);
  if (format === 'uri' || format === 'url') return 'https://partner.example/pvs';
  if (format === 'email') return 'accounts@partner.example';
  if (format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (format === 'byte') return 'ZXhhbXBsZQ==';
  const prefix = /`([a-z]{2,4})_…`/.exec(String(schema.description ?? ''))?.[1] ?? idPrefixes[name];
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? Infinity;
  const candidates = [
    prefix ? `${prefix}_${exampleUlid}` : undefined,
    typeof schema.pattern === 'string' ? fromPattern(schema.pattern) : undefined,
    namedValues[name],
    `example ${name}`.trim(),
    `example-${name || 'value'}`,
    '+61 2 9000 0000',
  ].filter((value): value is string => value !== undefined);
  const fits = (value: string) => value.length >= min && value.length <= max && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value));
  return candidates.find(fits) ?? `example ${name}`.trim().padEnd(min, 'x').slice(0, max);
}

function numberExample(schema: Json): number {
  const minimum = (schema.minimum as number | undefined) ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined);
  const maximum = schema.maximum as number | undefined;
  if (minimum !== undefined) return minimum > 0 ? minimum : Math.min(1, maximum ?? 1);
  return maximum !== undefined ? Math.min(maximum, 1) : 1;
}

/** An example value of `schema`; `$ref`s are read from the document's components. */
export function exampleOf(schema: unknown, components: Json, name = '', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return exampleOf(components[decodeURIComponent(s.$ref.split('/').pop()!)], components, name, depth + 1);
  if ('example' in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const choices = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    const chosen = choices.find((c) => (c as Json)?.type !== 'null') ?? choices[0];
    return exampleOf(chosen, components, name, depth + 1);
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, components, name, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringExample(s, name);
    case 'integer':
    case 'number':
      return numberExample(s);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = exampleOf(s.items, components, name, depth + 1);
      return Array.from({ length: Math.max(1, (s.minItems as number | undefined) ?? 1) }, () => item);
    }
    case 'object':
    default: {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const entries = Object.entries(properties).map(([key, value]) => [key, exampleOf(value, components, key, depth + 1)]);
      if (entries.length === 0 && s.patternProperties && typeof s.patternProperties === 'object') {
        const [values] = Object.values(s.patternProperties as Json);
        return { [name === 'metadata' ? 'invoice' : 'key']: exampleOf(values, components, 'value', depth + 1) };
      }
      return Object.fromEntries(entries);
    }
  }
}

// The kind of id a path parameter names, by the collection before it: `/v1/business-lookups/{id}`.
const collections: Record<string, IdKind> = {
  'api-clients': 'apiClient',
  'business-lookups': 'lookup',
  verifications: 'verification',
  individuals: 'individual',
  'deed-analyses': 'deedAnalysis',
  contacts: 'contact',
  charges: 'charge',
  payments: 'payment',
  'channel-payments': 'payment',
  'webhook-destinations': 'destination',
  'webhook-notifications': 'notification',
  alerts: 'monitoringAlert',
};

/** The kind of id the path parameter `name` of `path` names, if it names one. */
export function pathIdKind(path: string, name: string): IdKind | undefined {
  const segments = path.split('/');
  const at = segments.indexOf(`{${name}}`);
  return at > 0 ? collections[segments[at - 1]!] : undefined;
}

type Parameter = Json & { name: string; in: string; schema?: Json };

/** Gives every parameter of `paths` an example, unless it has one already (from its schema's `examples`). */
export function addParameterExamples(paths: Record<string, Record<string, Json>>, components: Json): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      for (const parameter of (operation.parameters ?? []) as Parameter[]) {
        if ('example' in parameter || 'examples' in parameter || !parameter.schema) continue;
        const kind = parameter.in === 'path' ? pathIdKind(path, parameter.name) : undefined;
        // Swagger moves a parameter's description off its schema; the id prefix it names is read from there.
        parameter.example = kind ? exampleId(kind) : exampleOf({ ...parameter.schema, description: parameter.description }, components, parameter.name);
      }
    }
  }
}

const jsonMedia = /^application\/(json|x-www-form-urlencoded)$/;

/** Gives every JSON request body and 2xx answer of `paths` an example, unless it has one already. */
export function addOperationExamples(paths: Record<string, Record<string, Json>>, components: Json): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
      const answers = Object.entries((operation.responses ?? {}) as Record<string, { content?: Record<string, Json> }>).filter(([status]) => status.startsWith('2'));
      for (const content of [body?.content, ...answers.map(([, answer]) => answer.content)]) {
        for (const [type, media] of Object.entries(content ?? {})) {
          if (!jsonMedia.test(type) || !media.schema || 'example' in media || 'examples' in media) continue;
          media.example = exampleOf(media.schema, components);
        }
      }
    }
  }
}
