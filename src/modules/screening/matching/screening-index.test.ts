import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildIndex, identifierKey, type IndexedEntry } from './screening-index.ts';

function entry(partial: Partial<IndexedEntry> & Pick<IndexedEntry, 'entryId' | 'name'>): IndexedEntry {
  return { list: 'test', kind: 'person', aliases: [], datesOfBirth: [], countries: [], identifiers: [], categories: ['SANCTIONS'], source: 'test', contentHash: partial.entryId, ...partial };
}

const index = buildIndex([
  entry({ entryId: '1', name: 'Boris Ivanovich KARLOV', aliases: ['Boris Karlof', 'Борис Иванович Карлов'], datesOfBirth: ['1961-03-14'], countries: ['RU'] }),
  entry({ entryId: '2', name: 'Amira Hassan EL-SAYED', datesOfBirth: ['1975-09-02'], countries: ['AU'], categories: ['PEP'] }),
  entry({ entryId: '3', kind: 'business', name: 'Northwind Trading FZE', countries: ['AE'], identifiers: ['Trade Licence 745213'] }),
  entry({ entryId: '4', name: 'Dmitri KARLOV', datesOfBirth: ['1990'] }),
]);

describe('the screening index', () => {
  it('finds a person by a reordered name and reports what drove the score', () => {
    const [match, ...rest] = index.search({ kind: 'person', names: ['Karlov Boris'], dateOfBirth: '1961-03-14', countries: ['RU'] }, 0.8);
    assert.equal(rest.length, 0);
    assert.equal(match!.entry.entryId, '1');
    assert.equal(match!.features.dateOfBirth, 'EXACT');
    assert.equal(match!.features.country, 'MATCH');
    assert.ok(match!.score > match!.features.nameScore);
  });

  it('answers with the alias that matched best', () => {
    const [match] = index.search({ kind: 'person', names: ['Boris Karlof'] }, 0.8);
    assert.equal(match!.matchedName, 'Boris Karlof');
    assert.equal(match!.features.alias, true);
  });

  it('lets a contradicting birth year outweigh an exact name', () => {
    assert.deepEqual(index.search({ kind: 'person', names: ['Boris Ivanovich Karlov'], dateOfBirth: '1985-01-01' }, 0.8), []);
  });

  it('keeps people and businesses apart', () => {
    assert.deepEqual(index.search({ kind: 'person', names: ['Northwind Trading'] }, 0.8), []);
    assert.equal(index.search({ kind: 'business', names: ['Northwind Trading Pty Ltd'] }, 0.8)[0]?.entry.entryId, '3');
  });

  it('matches a business on a shared identifier whatever its name', () => {
    const [match] = index.search({ kind: 'business', names: ['Something Else Entirely'], identifiers: ['745213 (trade licence)'] }, 0.8);
    assert.equal(match?.entry.entryId, '3');
    assert.equal(match?.features.identifier, 'MATCH');
    assert.equal(match?.score, 1);
  });

  it('orders several matches best first, one per entry', () => {
    const matches = index.search({ kind: 'person', names: ['Boris Karlov', 'B. I. Karlov'] }, 0.5);
    assert.deepEqual(
      matches.map((m) => m.entry.entryId),
      [...new Set(matches.map((m) => m.entry.entryId))],
    );
    assert.ok(matches.every((m, i) => i === 0 || matches[i - 1]!.score >= m.score));
  });

  it('reads identifiers by their words that hold a digit', () => {
    assert.equal(identifierKey('ABN 51 824 753 556'), '51824753556');
    assert.equal(identifierKey('Company No. 08123456'), '08123456');
    assert.equal(identifierKey('No. 123'), undefined);
  });
});
