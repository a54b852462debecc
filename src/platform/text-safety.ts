// What text PVS accepts from outside, wherever it comes from: HTTP bodies, query strings, path
// parameters and headers, CLI arguments, imported files. PostgreSQL's text cannot hold NUL; a lone
// UTF-16 surrogate has no UTF-8 form (the driver would quietly store U+FFFD); control characters make no
// sense in names, ids or references and break logs and terminals. Refusing them here, with a message that
// says what and where, keeps them from failing deeper as a 500 or from being stored altered.

export interface TextRules {
  /** Tab, line feed and carriage return allowed (free text in a JSON body, a multi-line note). */
  multiline?: boolean;
  /** In UTF-16 code units, as JSON Schema's maxLength counts for the text PVS takes. */
  maxLength?: number;
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why this text cannot be taken, or undefined when it can. The message reads after the field's name:
 * "contains a NUL character (U+0000) at position 3".
 */
export function textProblem(value: string, rules: TextRules = {}): string | undefined {
  if (rules.maxLength !== undefined && value.length > rules.maxLength) {
    return `is ${value.length} characters long; at most ${rules.maxLength} are accepted`;
  }
  if (!value.isWellFormed()) {
    const at = firstLoneSurrogate(value);
    return `contains an unpaired UTF-16 surrogate (${hex(value.charCodeAt(at))}) at position ${at + 1}; send well-formed Unicode`;
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // Everything from U+00A0 up is printable enough, and this loop is on every request's every string.
    if (code >= 0x20 && code < 0x7f) continue;
    if (code > 0x9f) continue;
    if (code === 0) return `contains a NUL character (U+0000) at position ${i + 1}`;
    if (rules.multiline && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    return `contains a control character (${hex(code)}) at position ${i + 1}`;
  }
  return undefined;
}

function firstLoneSurrogate(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return i;
  }
  return -1;
}

/** Limits on the shape of a parsed document (a JSON body, an admin command's input). */
export interface ShapeLimits {
  maxDepth: number;
  maxArrayItems: number;
  maxObjectKeys: number;
  maxStringLength: number;
}

/**
 * Backstops for every JSON body: a route's schema sets tighter bounds on its own fields. A body is at
 * most 1 MiB, so these only stop what no schema could mean (a 500 000-item array, 10 000 levels).
 */
export const jsonBodyLimits: ShapeLimits = { maxDepth: 32, maxArrayItems: 1_000, maxObjectKeys: 200, maxStringLength: 65_536 };

export interface ShapeProblem {
  /** A JSON Pointer into the document. */
  pointer: string;
  message: string;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where the key names a field whose text would misrender: keys are text from outside too. */
function keyForPointer(key: string): string {
  return textProblem(key) === undefined ? escapePointer(key) : escapePointer(JSON.stringify(key).slice(1, -1));
}

/**
 * Every string, key and number of a parsed document checked against the text rules and the limits.
 * Stops at the first `max` problems: a body of 100 000 bad strings does not earn a 100 000-line answer.
 */
export function inspectDocument(value: unknown, limits: ShapeLimits, options: { multiline?: boolean; max?: number } = {}): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const max = options.max ?? 20;
  const rules: TextRules = { multiline: options.multiline ?? true, maxLength: limits.maxStringLength };

  function visit(node: unknown, pointer: string, depth: number): void {
    if (problems.length >= max) return;
    if (typeof node === 'string') {
      const problem = textProblem(node, rules);
      if (problem) problems.push({ pointer, message: problem });
      return;
    }
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) problems.push({ pointer, message: 'is a number too large to represent; send a value within ±1.7e308' });
      else if (Number.isInteger(node) && !Number.isSafeInteger(node)) {
        problems.push({ pointer, message: 'is an integer beyond ±9007199254740991, which cannot be held exactly' });
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth >= limits.maxDepth) {
      problems.push({ pointer, message: `nests deeper than ${limits.maxDepth} levels`});
      return;
    }
    if (Array.isArray(node)) {
      if (node.length > limits.maxArrayItems) {
        problems.push({ pointer, message: `has ${node.length} items; at most ${limits.maxArrayItems} are accepted`});
        return;
      }
      node.forEach((item, i) => visit(item, `${pointer}/${i}`, depth + 1));
      return;
    }
    const keys = Object.keys(node);
    if (keys.length > limits.maxObjectKeys) {
      problems.push({ pointer, message: `has ${keys.length} fields; at most ${limits.maxObjectKeys} are accepted`});
      return;
    }
    for (const key of keys) {
      const child = `${pointer}/${keyForPointer(key)}`;
      const keyProblem = textProblem(key, { maxLength: 256 });
      if (keyProblem) {
        problems.push({ pointer: child, message: `field name ${keyProblem}` });
        continue;
      }
      visit((node as Record<string, unknown>)[key], child, depth + 1);
    }
  }

  visit(value, '', 0);
  return problems;
}
