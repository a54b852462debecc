import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { nameScoreBound, nameVariants, prepareName, scoreNames } from './name-score.ts';

const person = (a: string, b: string) => scoreNames(prepareName(a, 'person'), prepareName(b, 'person'), 'person').score;
const business = (a: string, b: string) => scoreNames(prepareName(a, 'business'), prepareName(b, 'business'), 'business').score;

describe('name similarity', () => {
  it('is 1 for the same name in another order, case or script', () => {
    assert.equal(person('Karlov Boris Ivanovich', 'Boris Ivanovich KARLOV'), 1);
    assert.equal(person('Борис Иванович Карлов', 'Boris Ivanovich Karlov'), 1);
  });

  it('costs a little for a missing middle name, and an initial stands for its word', () => {
    const missing = person('Boris Karlov', 'Boris Ivanovich Karlov');
    assert.ok(missing >= 0.9 && missing < 1, String(missing));
    assert.ok(person('B. Karlov', 'Boris Karlov') >= 0.85);
    assert.ok(person('C. Karlov', 'Boris Karlov') < 0.5);
  });

  it('keeps transliterations and single typos in long names above 0.85', () => {
    assert.ok(person('Muhammad Qadri', 'Mohammed Qadri') >= 0.85);
    assert.ok(person('Vladislav Kurenov', 'Vladislav Kurenkov') >= 0.85);
    assert.ok(person('Amira Elsayed', 'Amira El-Sayed') === 1);
  });

  it('compares names split differently through their joined variants', () => {
    const best = (a: string, b: string) =>
      Math.max(...nameVariants(prepareName(a, 'person')).flatMap((x) => nameVariants(prepareName(b, 'person')).map((y) => scoreNames(x, y, 'person').score)));
    assert.equal(best('Kim Minjun', 'Kim Min-jun'), 1);
    assert.equal(best('Abdelrahman Saleh', 'Abdel Rahman Saleh'), 1);
    assert.ok(person('Kim Minjun', 'Kim Min-jun') < 0.8, 'not without the variants');
  });

  it('keeps names sharing only one token, or differing in several, below 0.8', () => {
    assert.ok(person('Dmitri Karlov', 'Boris Karlov') < 0.8);
    assert.ok(person('Karlov', 'Boris Karlov') <= 0.7, 'a surname alone');
    assert.ok(person('Borislav Karpov', 'Boris Karlov') < 0.8);
    assert.ok(person('Hassan Rahmani', 'Hussein Rahimi') < 0.8);
    assert.ok(person('Wang Jun', 'Wang Jian') < 0.8);
    assert.ok(person('Ivan B. Karlov', 'Boris Karlov') < 0.8, 'one shared word and an initial');
    assert.ok(person('Juan Correz Lares', 'Juan Garcia') < 0.8, 'consonant skeletons alike, spellings not');
  });

  it('gives initials alone nothing', () => {
    assert.equal(person('B. I.', 'Boris Ivanovich'), 0);
  });

  it('ignores legal forms but not distinctive words in business names', () => {
    assert.equal(business('Northwind Trading Pty Ltd', 'Northwind Trading FZE'), 1);
    assert.ok(business('Nortwind Trading', 'Northwind Trading') >= 0.9);
    assert.ok(business('Northwind Logistics', 'Northwind Trading') < 0.8);
    assert.ok(business('Global Mining LLC', 'Global Trading LLC') < 0.8);
  });
});

describe('the bound the index prunes with (nameScoreBound)', () => {
  const pairs = JSON.parse(readFileSync(new URL('../../../../test/screening/labelled-pairs.json', import.meta.url), 'utf8')) as Array<{
    kind: 'person' | 'business';
    query: { name: string };
    entry: { name: string; aliases: string[] };
  }>;

  it('is never below the score, for every two names of the labelled set of a kind, and their joined variants', () => {
    let compared = 0;
    let tight = 0;
    for (const kind of ['person', 'business'] as const) {
      const texts = [...new Set(pairs.filter((p) => p.kind === kind).flatMap((p) => [p.query.name, p.entry.name, ...p.entry.aliases]))];
      const names = texts.flatMap((text) => nameVariants(prepareName(text, kind)));
      for (const a of names) {
        for (const b of names) {
          const score = scoreNames(a, b, kind).score;
          const bound = nameScoreBound(a, b, kind);
          assert.ok(bound >= score, `${kind} "${a.tokens.join(' ')}" / "${b.tokens.join(' ')}": bound ${bound} below score ${score}`);
          compared++;
          if (bound === score) tight++;
        }
      }
    }
    // The check above can fail: the bound is reached, so it is no looser than it must be for equal names.
    assert.ok(compared > 10_000 && tight > 0, `${compared} pairs, ${tight} with the bound reached`);
  });
});
