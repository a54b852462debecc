import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lockSeconds, lockoutThreshold, maxLockSeconds } from './lockout.ts';

describe('lockSeconds', () => {
  it('does not lock below the threshold', () => {
    for (let failures = 0; failures < lockoutThreshold; failures++) assert.equal(lockSeconds(failures), 0, `${failures} failures`);
  });

  it('locks for a minute at the threshold, doubling with each further failure up to an hour', () => {
    assert.deepEqual(
      [5, 6, 7, 8, 9, 10, 11, 12].map(lockSeconds),
      [60, 120, 240, 480, 960, 1920, 3600, 3600],
    );
  });

  it('stays at the cap however long the count grows', () => {
    assert.equal(lockSeconds(1_000), maxLockSeconds);
    assert.equal(lockSeconds(2 ** 31 - 1), maxLockSeconds);
  });
});
