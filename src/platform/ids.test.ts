import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isId, newId } from './ids.ts';

describe('ids', () => {
  it('are prefixed ULIDs that sort by time', () => {
    const early = newId('payment', Date.parse('2026-01-01T00:00:00Z'));
    const late = newId('payment', Date.parse('2026-01-01T00:00:00.001Z'));
    assert.ok(isId('payment', early) && isId('payment', late));
    assert.ok(early < late);
  });

  it('sort in the order they were made within one millisecond, across kinds', () => {
    const now = Date.parse('2026-11-24T09:00:00Z');
    const made = Array.from({ length: 500 }, (_, i) => newId(i % 2 ? 'event' : 'payment', now).slice(4));
    assert.deepEqual([...made].sort(), made);
    assert.equal(new Set(made).size, made.length);
  });

  it('stay in order for an injected clock’s millisecond while the system clock’s ids interleave', () => {
    const stopped = Date.parse('2026-11-24T10:00:00Z');
    const first = newId('event', stopped);
    for (let i = 0; i < 100; i++) newId('request', stopped + 1_000 + i);
    assert.ok(newId('event', stopped) > first);
  });
});
