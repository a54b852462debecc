import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jaro, jaroWinkler } from './jaro-winkler.ts';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 0.001, `${actual} is not ${expected}`);

describe('Jaro-Winkler', () => {
  it("gives Winkler's published values", () => {
    close(jaroWinkler('martha', 'marhta'), 0.961);
    close(jaroWinkler('dwayne', 'duane'), 0.84);
    close(jaroWinkler('dixon', 'dicksonx'), 0.813);
    close(jaro('martha', 'marhta'), 0.944);
  });

  it('is 1 for equal tokens, 0 for nothing in common or an empty token, and symmetric', () => {
    assert.equal(jaroWinkler('karlov', 'karlov'), 1);
    assert.equal(jaroWinkler('abc', 'xyz'), 0);
    assert.equal(jaroWinkler('', 'abc'), 0);
    for (const [a, b] of [['karlov', 'karpov'], ['mohammed', 'muhammad'], ['sergei', 'sergey']] as const) assert.equal(jaroWinkler(a, b), jaroWinkler(b, a));
  });

  it('does not boost a weak Jaro score for a shared prefix', () => {
    const weak = jaro('abcdxyz', 'abcdpqrstuvw');
    assert.ok(weak < 0.7);
    assert.equal(jaroWinkler('abcdxyz', 'abcdpqrstuvw'), weak);
  });

  it('compares very long tokens on their first 64 characters without failing', () => {
    const long = 'a'.repeat(100);
    assert.equal(jaroWinkler(long, `${'a'.repeat(64)}b`), 1);
  });
});
