// The retry schedule of webhook deliveries (CONTRACT §10): after failed attempt n the next comes after
// 30 s, 2 min, 8 min, 30 min, 1 h, 2 h, 4 h, 6 h, 8 h (±10 % jitter); 10 attempts within 24 hours;
// Retry-After honoured within the schedule's bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deliveryWindowMs, maxAttempts, nextAttemptAt, parseRetryAfter, retryDelaysSeconds } from './schedule.ts';

const first = new Date('2026-03-02T08:00:00.000Z');
const noJitter = () => 0.5;
const minute = 60;
const hour = 3600;
const expectedDelays = [30, 2 * minute, 8 * minute, 30 * minute, hour, 2 * hour, 4 * hour, 6 * hour, 8 * hour];

const after = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

describe('nextAttemptAt', () => {
  it('waits exactly 30 s, 2 min, 8 min, 30 min, 1 h, 2 h, 4 h, 6 h, 8 h after attempts 1 to 9 without jitter', () => {
    assert.deepEqual([...retryDelaysSeconds], expectedDelays);
    assert.equal(maxAttempts, 10);
    let now = first;
    for (const [index, delay] of expectedDelays.entries()) {
      const next = nextAttemptAt({ failedAttempt: index + 1, firstAttemptAt: first, now, random: noJitter });
      assert.deepEqual(next, after(now, delay), `after attempt ${index + 1}`);
      now = next!;
    }
    // The whole schedule fits in the 24-hour window with room for the jitter.
    assert.ok(now.getTime() - first.getTime() < deliveryWindowMs);
  });

  it('measures each wait from when the failed attempt ended, not from the first attempt', () => {
    const ended = after(first, 95);
    assert.deepEqual(nextAttemptAt({ failedAttempt: 2, firstAttemptAt: first, now: ended, random: noJitter }), after(ended, 120));
  });

  it('jitters each wait by at most ±10 %', () => {
    for (const [index, delay] of expectedDelays.entries()) {
      const at = (random: number) => nextAttemptAt({ failedAttempt: index + 1, firstAttemptAt: first, now: first, random: () => random })!.getTime() - first.getTime();
      assert.equal(at(0), Math.round(delay * 900), `lowest after attempt ${index + 1}`);
      assert.ok(at(0.999_999_9) <= delay * 1100, `highest after attempt ${index + 1}`);
      assert.ok(at(0.999_999_9) > delay * 1099, `highest after attempt ${index + 1} is near +10 %`);
      for (const random of [0.1, 0.25, 0.5, 0.75, 0.9]) {
        const ms = at(random);
        assert.ok(ms >= delay * 900 && ms <= delay * 1100, `attempt ${index + 1}, random ${random}: ${ms} ms`);
      }
    }
  });

  it('gives no further attempt after the 10th', () => {
    const tenth = after(first, 80_000);
    assert.ok(nextAttemptAt({ failedAttempt: 9, firstAttemptAt: first, now: after(first, 50_000), random: noJitter }));
    assert.equal(nextAttemptAt({ failedAttempt: 10, firstAttemptAt: first, now: tenth, random: noJitter }), null);
    assert.equal(nextAttemptAt({ failedAttempt: 11, firstAttemptAt: first, now: tenth, random: noJitter }), null);
  });

  it('stops at a notification’s own attempt limit', () => {
    assert.equal(nextAttemptAt({ failedAttempt: 3, firstAttemptAt: first, now: first, random: noJitter, maxAttempts: 3 }), null);
    assert.deepEqual(nextAttemptAt({ failedAttempt: 2, firstAttemptAt: first, now: first, random: noJitter, maxAttempts: 3 }), after(first, 120));
  });

  it('honours a later Retry-After', () => {
    const next = nextAttemptAt({ failedAttempt: 1, firstAttemptAt: first, now: first, retryAfterSeconds: 600, random: noJitter });
    assert.deepEqual(next, after(first, 600));
  });

  it('never retries sooner than the schedule, whatever Retry-After says', () => {
    for (const retryAfterSeconds of [0, 5, 29]) {
      assert.deepEqual(nextAttemptAt({ failedAttempt: 1, firstAttemptAt: first, now: first, retryAfterSeconds, random: noJitter }), after(first, 30));
    }
    assert.deepEqual(nextAttemptAt({ failedAttempt: 3, firstAttemptAt: first, now: first, retryAfterSeconds: 60, random: noJitter }), after(first, 480));
  });

  it('never waits longer than the longest step of the schedule for a Retry-After', () => {
    const next = nextAttemptAt({ failedAttempt: 1, firstAttemptAt: first, now: first, retryAfterSeconds: 7 * 24 * hour, random: noJitter });
    assert.deepEqual(next, after(first, 8 * hour));
  });

  it('never schedules past 24 hours after the first attempt', () => {
    const deadline = after(first, 24 * hour);
    // Attempt 9 fails at 20 h: its 8 h wait would end at 28 h.
    assert.deepEqual(nextAttemptAt({ failedAttempt: 9, firstAttemptAt: first, now: after(first, 20 * hour), random: noJitter }), deadline);
    // A Retry-After cannot push past it either.
    assert.deepEqual(
      nextAttemptAt({ failedAttempt: 2, firstAttemptAt: first, now: after(first, 23 * hour), retryAfterSeconds: 5 * hour, random: noJitter }),
      deadline,
    );
    // The largest jitter on every step still ends inside the window.
    let now = first;
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      now = nextAttemptAt({ failedAttempt: attempt, firstAttemptAt: first, now, random: () => 0.999_999 })!;
      assert.ok(now.getTime() <= deadline.getTime(), `attempt ${attempt + 1} at ${now.toISOString()}`);
    }
  });

  it('gives up once the 24-hour window has closed', () => {
    assert.equal(nextAttemptAt({ failedAttempt: 2, firstAttemptAt: first, now: after(first, 24 * hour), random: noJitter }), null);
    assert.equal(nextAttemptAt({ failedAttempt: 5, firstAttemptAt: first, now: after(first, 30 * hour), random: noJitter }), null);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-02T08:00:00.000Z');

  it('reads a number of seconds', () => {
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 45 ', now), 45);
  });

  it('reads an HTTP date as the seconds until it', () => {
    assert.equal(parseRetryAfter('Mon, 02 Mar 2026 08:15:00 GMT', now), 900);
    assert.equal(parseRetryAfter(new Date(now.getTime() + 90_000).toUTCString(), now), 90);
  });

  it('reads a date already past as 0', () => {
    assert.equal(parseRetryAfter('Mon, 02 Mar 2026 07:00:00 GMT', now), 0);
  });

  it('ignores an absent or unreadable value', () => {
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('120s', now), undefined);
  });
});
