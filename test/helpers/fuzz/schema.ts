// The JSON Schema the fuzz suite reads: the served OpenAPI document's request schemas, and the Fastify
// route schemas (TypeBox) of the routes the document hides. Only what a request generator needs: $ref
// resolution, the branches of anyOf/oneOf/allOf, and a plausible value for each shape.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  [keyword: string]: unknown;
};

/** Resolves local `#/…` references against the document they came from. */
export function createResolver(root: unknown): (schema: JsonSchema | undefined) => JsonSchema | undefined {
  return function resolve(schema) {
    let current = schema;
    for (let hops = 0; current?.$ref !== undefined && hops < 16; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/')) return current;
      current = ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], root) as JsonSchema | undefined;
    }
    return current;
  };
}

/** The branches a value may take: a union's members, or the schema itself. */
export function branches(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ?? schema.oneOf ?? [schema];
}

export function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Properties of an object schema, merged across allOf. */
export function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  const parts = [schema, ...(schema.allOf ?? [])];
  return {
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, JsonSchema>,
    required: parts.flatMap((p) => p.required ?? []),
  };
}

export function isObjectSchema(schema: JsonSchema): boolean {
  return typesOf(schema).includes('object') || schema.properties !== undefined;
}

/** A string the schema's pattern accepts, chosen from a few shapes, or undefined when none fits. */
function stringForPattern(pattern: string, min: number, max: number): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const candidates = ['fuzz', 'Fuzz Value', 'FUZZ', 'fuzz_1', 'fuzz-1', 'AU', 'a', 'A', '1', '12345678901', '2000-01-01', 'fuzz@example.com', 'https://example.com/fuzz'];
  return candidates.find((c) => c.length >= min && c.length <= max && regex.test(c));
}

const formatValues: Record<string, () => string> = {
  'date-time': () => new Date().toISOString(),
  date: () => '2000-01-01',
  time: () => '12:00:00Z',
  email: () => 'a@example.com',
  uri: () => 'https://example.com/fuzz',
  url: () => 'https://example.com/fuzz',
  uuid: () => '00000000-0000-4000-8000-000000000000',
  ipv4: () => '192.0.2.1',
  hostname: () => 'example.com',
};

/**
 * A value the schema accepts, or the closest cheap guess: `examples`, `default` and `const` first, an
 * enum's first member, a string that fits the format, pattern and lengths, a number within bounds, and
 * for objects every required property plus the optional ones `hints` names (by property name).
 */
export function plausibleValue(schema: JsonSchema | undefined, resolve: (s: JsonSchema | undefined) => JsonSchema | undefined, hints: Record<string, unknown> = {}, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 8) return 'fuzz';
  if (s.examples?.length) return structuredClone(s.examples[0]);
  if (s.example !== undefined) return structuredClone(s.example);
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.anyOf || s.oneOf) {
    const options = branches(s).map((b) => resolve(b)!);
    const chosen = options.find((b) => !typesOf(b).includes('null')) ?? options[0];
    return plausibleValue(chosen, resolve, hints, depth + 1);
  }
  const [type] = typesOf(s).filter((t) => t !== 'null');
  if (isObjectSchema(s) || type === 'object') {
    const { properties, required } = propertiesOf(s);
    const value: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(properties)) {
      if (required.includes(name)) value[name] = name in hints ? hints[name] : plausibleValue(member, resolve, hints, depth + 1);
      else if (name in hints && hints[name] !== undefined) value[name] = hints[name];
    }
    return value;
  }
  switch (type) {
    case 'array': {
      const count = Math.max(0, s.minItems ?? 0);
      const item = resolve(s.items);
      const members = item ? branches(item) : [];
      // uniqueItems over a union of literals: one of each branch.
      return Array.from({ length: count }, (_, i) => plausibleValue(members[i % Math.max(1, members.length)] ?? item, resolve, hints, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
      const value = min ?? Math.min(1, max ?? 1);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return true;
    case 'string': {
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 200;
      const formatted = s.format ? formatValues[s.format]?.() : undefined;
      if (formatted !== undefined) return formatted;
      if (s.pattern) return stringForPattern(s.pattern, min, max) ?? 'fuzz';
      const text = 'fuzz'.padEnd(min, 'z');
      return text.slice(0, Math.max(min, Math.min(max, text.length)));
    }
    default:
      // Untyped (any value): a short string is the least surprising.
      return 'fuzz';
  }
}
