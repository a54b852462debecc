// Reading a JSON body. Stricter than JSON.parse alone, because what it lets through reaches the schema,
// the database and the idempotency fingerprint:
// - bytes that are not UTF-8 are refused (decoding would turn them into U+FFFD, silently changing a name);
// - a key given twice is refused (JSON.parse keeps the last, so the body would say two things at once);
// - `__proto__` and `constructor.prototype` keys are refused (secure-json-parse, as Fastify's own parser);
// - an empty body is no body at all (undefined): many clients send `Content-Type: application/json` on a
//   POST that takes nothing.
import secureJson from 'secure-json-parse';
import { AppError } from '../errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The body is not valid UTF-8; send JSON encoded as UTF-8', { pointer: '' });
  }
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', `The body is not valid JSON: ${(error as Error).message}`, { pointer: '' });
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    throw new AppError('VALIDATION_ERROR', `"${duplicate.key}" appears twice in one object; send each field once`, { pointer: duplicate.pointer });
  }
  return value;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The end (closing quote) of the JSON string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The first key that appears twice in one object, with the pointer to it. `text` must be valid JSON (it is
 * scanned after JSON.parse accepted it), so the scan only tracks strings, nesting and array positions.
 */
export function firstDuplicateKey(text: string): { key: string; pointer: string } | undefined {
  // One entry per open container: the keys seen so far (objects) or null (arrays), and the path to it.
  const keys: Array<Set<string> | null> = [];
  const path: Array<string | number> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      let next = end + 1;
      while (isSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === 0x3a) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const seen = keys[keys.length - 1]!;
        path[path.length - 1] = key;
        if (seen.has(key)) return { key, pointer: path.map((p) => `/${typeof p === 'string' ? escapePointer(p) : p}`).join('') };
        seen.add(key);
      }
      i = end;
    } else if (c === 0x7b) {
      keys.push(new Set());
      path.push('');
    } else if (c === 0x5b) {
      keys.push(null);
      path.push(0);
    } else if (c === 0x7d || c === 0x5d) {
      keys.pop();
      path.pop();
    } else if (c === 0x2c && keys[keys.length - 1] === null) {
      path[path.length - 1] = (path[path.length - 1] as number) + 1;
    }
  }
  return undefined;
}
