import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectDocument, jsonBodyLimits, textProblem } from './text-safety.ts';

describe('textProblem', () => {
  it('takes any script, emoji and right-to-left text', () => {
    for (const text of ['Zoë Ångström', '王小明', 'مرحبا', 'שלום\u202Eabc', '👩‍👩‍👧 family', "O'Brien; DROP TABLE x --", '<script>', '']) {
      assert.equal(textProblem(text), undefined, text);
    }
  });

  it('refuses NUL, control characters and DEL, saying which and where', () => {
    assert.equal(textProblem('ab\u0000c'), 'contains a NUL character (U+0000) at position 3');
    assert.equal(textProblem('a\u0007'), 'contains a control character (U+0007) at position 2');
    assert.equal(textProblem('\u007f'), 'contains a control character (U+007F) at position 1');
    assert.equal(textProblem('x\u0085'), 'contains a control character (U+0085) at position 2');
  });

  it('takes tab, line feed and carriage return only in multi-line text', () => {
    assert.match(textProblem('a\nb')!, /U\+000A/);
    assert.equal(textProblem('a\r\n\tb', { multiline: true }), undefined);
    assert.match(textProblem('a\u0000b', { multiline: true })!, /NUL/);
  });

  it('refuses unpaired surrogates but takes pairs', () => {
    assert.equal(textProblem('a\ud83d\ude00'), undefined);
    assert.equal(textProblem('a\ud800b'), 'contains an unpaired UTF-16 surrogate (U+D800) at position 2; send well-formed Unicode');
    assert.match(textProblem('\udc00')!, /U\+DC00\) at position 1/);
    assert.match(textProblem('\ud83d\ude00\ud83d')!, /U\+D83D\) at position 3/);
  });

  it('refuses text over its length', () => {
    assert.equal(textProblem('abcd', { maxLength: 3 }), 'is 4 characters long; at most 3 are accepted');
    assert.equal(textProblem('abc', { maxLength: 3 }), undefined);
  });
});

describe('inspectDocument', () => {
  it('points at every bad string, key and number', () => {
    const problems = inspectDocument({ a: ['ok', 'x\u0000'], 'k\u0001': 1, n: Infinity, big: 2 ** 53 + 2, 'a/b': '\ud800' }, jsonBodyLimits);
    assert.deepEqual(
      problems.map((p) => p.pointer),
      ['/a/1', '/k\\u0001', '/n', '/big', '/a~1b'],
    );
    assert.match(problems[1]!.message, /^field name contains a control character/);
    assert.match(problems[2]!.message, /too large to represent/);
    assert.match(problems[3]!.message, /9007199254740991/);
  });

  it('takes -0, fractions and safe integers; whole numbers past 2^53 are not held exactly', () => {
    assert.deepEqual(inspectDocument({ a: -0, b: 0.1, c: -(2 ** 53 - 1), d: 1.5e-300 }, jsonBodyLimits), []);
    assert.deepEqual(
      inspectDocument([1e300, -(2 ** 53)], jsonBodyLimits).map((p) => p.pointer),
      ['/0', '/1'],
    );
  });

  it('stops deep nesting, huge arrays and objects at the limits', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    const [nested] = inspectDocument(deep, jsonBodyLimits);
    assert.equal(nested!.message, 'nests deeper than 32 levels');
    assert.equal(nested!.pointer, '/0'.repeat(32));
    assert.equal(inspectDocument({ list: Array(1001).fill(0) }, jsonBodyLimits)[0]!.message, 'has 1001 items; at most 1000 are accepted');
    const wide = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]));
    assert.equal(inspectDocument(wide, jsonBodyLimits)[0]!.message, 'has 201 fields; at most 200 are accepted');
  });

  it('reports at most `max` problems', () => {
    assert.equal(inspectDocument(Array(500).fill('\u0000'), jsonBodyLimits, { max: 20 }).length, 20);
  });
});
