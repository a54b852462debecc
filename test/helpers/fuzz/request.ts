// Writing a fuzz case as the request app.inject sends: the operation's baseline with the case's one
// change, JSON that JSON.stringify could not write (Raw text, repeated keys), forms, and URLs whose text
// is percent-encoded byte by byte (a lone surrogate as its WTF-8 bytes) or left nearly raw.
import { randomBytes } from 'node:crypto';
import { sampleJpeg } from '../../fixtures/images.ts';
import { baselineOf, type FuzzCase, type FuzzContext } from './cases.ts';
import { Entries, Raw } from './hostile.ts';
import type { FuzzOperation } from './operations.ts';

const segmentsOf = (pointer: string) => (pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')));

/** Sets (or with `undefined`, removes) the member at `pointer`, making missing parents as objects. */
function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const segments = segmentsOf(pointer);
  if (segments.length === 0) return value;
  const top = root && typeof root === 'object' ? root : {};
  let node = top as Record<string, unknown>;
  segments.slice(0, -1).forEach((key, i) => {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (!next || typeof next !== 'object') define(node, key, /^\d+$/.test(segments[i + 1]!) ? [] : {});
    node = node[key] as Record<string, unknown>;
  });
  const last = segments[segments.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else define(node, last, value);
  return top;
}

/** An own member even when the key is `__proto__`. */
function define(node: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON text for a value that may hold Raw text and Entries. */
export function toJsonBytes(value: unknown): Buffer {
  const parts: Array<string | Buffer> = [];
  const write = (v: unknown): void => {
    if (v instanceof Raw) parts.push(v.text);
    else if (v instanceof Entries) {
      parts.push('{');
      v.entries.forEach(([k, member], i) => {
        parts.push(`${i ? ',' : ''}${JSON.stringify(k)}:`);
        write(member);
      });
      parts.push('}');
    } else if (Array.isArray(v)) {
      parts.push('[');
      v.forEach((member, i) => {
        if (i) parts.push(',');
        write(member === undefined ? null : member);
      });
      parts.push(']');
    } else if (v && typeof v === 'object') {
      parts.push('{');
      Object.keys(v).forEach((k, i) => {
        parts.push(`${i ? ',' : ''}${JSON.stringify(k)}:`);
        write((v as Record<string, unknown>)[k]);
      });
      parts.push('}');
    } else if (typeof v === 'number') parts.push(Object.is(v, -0) ? '-0' : Number.isFinite(v) ? String(v) : v > 0 ? '1e999' : '-1e999');
    else parts.push(JSON.stringify(v ?? null));
  };
  write(value);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** UTF-8 bytes of text with lone surrogates kept as their WTF-8 bytes, not replaced. */
function looseUtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Buffer.from(bytes);
}

/** percent: every byte but the unreserved ones; minimal: only what would change the URL's structure. */
function encodeUrlText(value: string | Buffer, encoding: 'percent' | 'minimal'): string {
  if (typeof value === 'string') {
    if (encoding === 'minimal') return value.replace(/[%&=#?/+]/g, (c) => byteEscapes[c.charCodeAt(0)]!);
    if (value.isWellFormed()) return encodeURIComponent(value).replace(/[!'()*]/g, (c) => byteEscapes[c.charCodeAt(0)]!);
  }
  const bytes = typeof value === 'string' ? looseUtf8(value) : value;
  let text = '';
  for (const b of bytes) text += byteEscapes[b];
  return text;
}

/** Each byte as it appears in a URL: unreserved characters as themselves, the rest as %XX. */
const byteEscapes = Array.from({ length: 256 }, (_, b) =>
  /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
);

/** A value as the text of a URL part or header: strings as they are, anything else as its JSON. */
function asText(value: unknown): string | Buffer {
  if (typeof value === 'string') return value;
  if (value instanceof Raw) return value.text;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value === null || value === undefined) return '';
  return toJsonBytes(value).toString('utf8');
}

/** `name=value` pairs; an array repeats the name, null leaves the name alone. */
function formPairs(values: Record<string, unknown>, encoding: 'percent' | 'minimal' = 'percent'): string {
  return Object.keys(values)
    .flatMap((name) => {
      const value = values[name];
      const key = encodeUrlText(name, encoding);
      if (value === undefined) return [];
      if (value === null) return [key];
      if (Array.isArray(value)) return value.map((v) => `${key}=${encodeUrlText(asText(v), encoding)}`);
      return [`${key}=${encodeUrlText(asText(value), encoding)}`];
    })
    .join('&');
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: Buffer;
}

/** The request of a case, or with no case, the operation's unchanged baseline (with real ids where there are). */
export function buildRequest(op: FuzzOperation, context: FuzzContext, fuzzCase?: FuzzCase): BuiltRequest {
  const { location, mutation } = fuzzCase ?? { location: { in: 'nowhere' as const }, mutation: { kind: 'remove' as const }, realIds: true };
  const baseline = baselineOf(op, context, fuzzCase?.realIds ?? true);
  const encoding = mutation.kind === 'set' ? mutation.encoding : 'percent';
  const newValue = mutation.kind === 'set' ? mutation.value : undefined;
  const pathValues: Record<string, string | Buffer> = { ...baseline.path };
  let pathEncoding: Record<string, 'percent' | 'minimal'> = {};
  let queryEncoding: 'percent' | 'minimal' = 'percent';
  let body = baseline.body;
  let bodyBytes: Buffer | undefined;
  let contentType: string | undefined = op.body?.contentType ?? (baseline.body !== undefined ? 'application/json' : undefined);

  switch (location.in) {
    case 'path':
      pathValues[location.name] = mutation.kind === 'remove' ? '' : asText(newValue);
      pathEncoding = { [location.name]: encoding };
      break;
    case 'query':
      if (mutation.kind === 'remove') delete baseline.query[location.name];
      else baseline.query[location.name] = newValue;
      queryEncoding = encoding;
      break;
    case 'header': {
      const text = asText(newValue);
      if (mutation.kind === 'remove') delete baseline.headers[location.name];
      else baseline.headers[location.name] = typeof text === 'string' ? text : text.toString('latin1');
      break;
    }
    case 'body':
      body = setAt(structuredCloneLoose(body), location.pointer, mutation.kind === 'remove' ? undefined : newValue);
      break;
    case 'body-object':
      if (mutation.kind === 'unknown-field') {
        const target = location.pointer === '' ? '' : location.pointer;
        body = setAt(structuredCloneLoose(body), `${target}/${mutation.key.replace(/~/g, '~0').replace(/\//g, '~1')}`, mutation.value);
      }
      break;
    default:
      break;
  }

  let multipartType: string | undefined;
  const serialise = (value: unknown) => {
    if (contentType === 'application/x-www-form-urlencoded') return Buffer.from(formPairs(value as Record<string, unknown>));
    if (contentType === 'multipart/form-data') {
      const form = multipartBytes(value, op.body?.schema);
      multipartType = form.contentType;
      return form.payload;
    }
    return toJsonBytes(value);
  };
  if (body !== undefined) bodyBytes = serialise(body);
  if (multipartType) contentType = multipartType;
  if (location.in === 'whole-body' && mutation.kind === 'body') {
    const built = mutation.variant.build(bodyBytes ?? Buffer.from('{}'), contentType ?? 'application/json');
    bodyBytes = built.payload;
    contentType = built.contentType;
  }

  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeUrlText(pathValues[name] ?? '', pathEncoding[name] ?? 'percent'));
  const query = formPairs(baseline.query, queryEncoding);
  const headers = { ...baseline.headers };
  const contentTypeFuzzed = location.in === 'header' && location.name === 'content-type';
  if (!contentTypeFuzzed) {
    if (contentType !== undefined && bodyBytes !== undefined) headers['content-type'] = contentType;
    else delete headers['content-type'];
  }
  return { method: op.method, url: `${path}${query ? `?${query}` : ''}`, headers, payload: bodyBytes };
}

/** structuredClone, keeping Raw and Entries (class instances) as they are. */
function structuredCloneLoose(value: unknown): unknown {
  if (value instanceof Raw || value instanceof Entries) return value;
  if (Array.isArray(value)) return value.map(structuredCloneLoose);
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) define(copy, key, structuredCloneLoose((value as Record<string, unknown>)[key]));
    return copy;
  }
  return value;
}


/**
 * A multipart form of the body's top-level members, as a browser's FormData sends it: a member the schema
 * calls `format: binary` is a file (a small JPEG in place of the baseline's text, the case's own value
 * otherwise), every other member a text field (objects and lists as their JSON).
 */
function multipartBytes(value: unknown, schema: { properties?: Record<string, { format?: string }> } | undefined): { payload: Buffer; contentType: string } {
  const boundary = `----fuzz${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const members = value instanceof Entries ? value.entries : value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['body', value] as const];
  for (const [name, member] of members) {
    const text = (v: unknown): Buffer => (v instanceof Raw ? Buffer.from(v.text) : Buffer.isBuffer(v) ? v : typeof v === 'string' ? Buffer.from(v) : toJsonBytes(v));
    const header = `--${boundary}\r\nContent-Disposition: form-data; name="${String(name).replace(/["\r\n]/g, '_')}"`;
    if (schema?.properties?.[name]?.format === 'binary') {
      const bytes = typeof member === 'string' && member.length <= 16 ? sampleJpeg() : text(member);
      parts.push(Buffer.from(`${header}; filename="upload.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), bytes, Buffer.from('\r\n'));
    } else parts.push(Buffer.from(`${header}\r\n\r\n`), text(member), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
