import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameVariants, prepareName } from './name-score.ts';
import { blockingKeys } from './screening-index.ts';
import { candidateFilters, planQuery, type Finder } from './search-filter.ts';
import { searchKeyScheme, searchNamesOf, wordKeys } from './search-keys.ts';

describe('the keys a list is stored with for the one-off search', () => {
  it('stores each name as its words tagged with its shape, names with the same words once', () => {
    const names = searchNamesOf({ kind: 'person', name: 'Boris Ivanovich KARLOV', aliases: ['KARLOV Boris Ivanovich', 'KARLOV, B. I.', 'Борис Карлов'] });
    assert.deepEqual(
      names.map((n) => [n.tokens.join(' '), n.initials]),
      [
        ['boris/3 ivanovich/3 karlov/3', 0],
        // Boris is short enough to be written joined to a neighbour (nameVariants), in either order.
        ['borisivanovich/2 karlov/2', 0],
        ['ivanovich/2 karlovboris/2', 0],
        ['b/0 i/0 karlov/0', 2],
        ['boris/2 karlov/2', 0],
      ],
    );
  });

  it('notes the words a name holds twice, and keeps joined-word variants as names of their own', () => {
    const [name, ...variants] = searchNamesOf({ kind: 'person', name: 'Mohammed bin Mohammed Abd Rahman', aliases: [] });
    assert.deepEqual(name, { tokens: ['abd/4', 'mohammed/4', 'mohammed/4', 'rahman/4'], repeats: ['mohammed/4'], initials: 0 });
    assert.ok(variants.some((v) => v.tokens.includes('abdrahman/3')));
  });

  it('keys a word exactly as the index keys it in a prepared name, joined variants included', () => {
    for (const text of ['Boris Ivanovich KARLOV', 'Abd al-Aziz Min-jun Thompson', 'Nguyễn Thị Phương', 'Golden Crescent Shipping 745213']) {
      for (const variant of nameVariants(prepareName(text, 'business'))) {
        variant.tokens.forEach((token, i) => assert.deepEqual(wordKeys(token), blockingKeys(token, variant.codes[i]!), token));
      }
    }
  });

  it('names the scheme of the code that derives them, the same every time', () => {
    assert.match(searchKeyScheme(), /^1:[0-9a-f]{16}$/);
    assert.equal(searchKeyScheme(), searchKeyScheme());
  });
});

describe('what a one-off search looks names up by', () => {
  const words = ['mohammed', 'muhammad', 'omar', 'masri', 'almasri'].map((token) => ({ token, keys: wordKeys(token) }));
  const leaves = (find: Finder): string[] => ('holds' in find ? find.holds : 'repeats' in find ? find.repeats.map((t) => `twice ${t}`) : ('all' in find ? find.all : find.any).flatMap(leaves));

  it('asks a four-word name for words of enough groups, and a three-word name no single common word', () => {
    const [filter] = candidateFilters(planQuery({ kind: 'person', names: ['Mohammed Omar al-Masri Hassan'] }, 0.8), words);
    // Hassan reaches no stored word: three groups are left, of one word each.
    assert.deepEqual(filter!.groups.map((g) => g.size), [1, 1, 1]);
    const looked = leaves(filter!.find);
    // A one-word name is found by any of them; a three- or four-word one needs all three groups, never one alone.
    assert.ok(looked.includes('mohammed/1') && looked.includes('omar/1'));
    const shapeOf = (find: Finder, shape: string): boolean => leaves(find).every((t) => t.endsWith(shape));
    const anyOf = 'any' in filter!.find ? filter!.find.any : [];
    const three = anyOf.find((f) => shapeOf(f, '/3'))!;
    assert.ok('any' in three && three.any.every((way) => 'all' in way && way.all.length === 3));
  });

  it('asks for two words of a group that two query words share (Mohammed … Muhammad), or one said twice', () => {
    const [filter] = candidateFilters(planQuery({ kind: 'person', names: ['Mohammed Muhammad'] }, 0.8), words);
    assert.deepEqual(filter!.groups.map((g) => g.size), [2]);
    const looked = leaves(filter!.find);
    assert.ok(looked.includes('twice mohammed/2'));
    // A two-word name holding one of them only is not read: it needs two hits.
    const twoWords = ('any' in filter!.find ? filter!.find.any : []).find((f) => leaves(f).some((t) => t.endsWith('/2')))!;
    assert.ok(!('holds' in twoWords));
  });
});
