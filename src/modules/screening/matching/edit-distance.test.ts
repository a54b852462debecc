import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from './edit-distance.ts';

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one each', () => {
    assert.equal(editDistance('karlov', 'karlov'), 0);
    assert.equal(editDistance('kurenov', 'kurenkov'), 1);
    assert.equal(editDistance('haddadin', 'haddain'), 1);
    assert.equal(editDistance('karlov', 'karpov'), 1);
    assert.equal(editDistance('karlov', 'kralov'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('tkachuk', 'tkachenko'), 3);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['markovic', 'markova'], ['hussein', 'hassan'], ['ab', 'ba']] as const) assert.equal(editDistance(a, b), editDistance(b, a));
  });
});
