import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRetryAt } from './retry-plan.ts';

const failedAt = new Date('2026-11-21T10:00:00.000Z');
const dayLater = '2026-11-22T10:00:00.000Z';

describe('the retry plan of a declined billing run', () => {
  it('retries code 02 after 24 hours, three times on one card, then stops', () => {
    assert.equal(nextRetryAt({ merchantAdviceCode: '02', attemptsOnCard: 1, failedAt })?.toISOString(), dayLater);
    assert.equal(nextRetryAt({ merchantAdviceCode: '02', attemptsOnCard: 3, failedAt })?.toISOString(), dayLater);
    assert.equal(nextRetryAt({ merchantAdviceCode: '02', attemptsOnCard: 4, failedAt }), null);
  });

  it('never retries 01, 03 or 21 on the same card', () => {
    for (const code of ['01', '03', '21']) assert.equal(nextRetryAt({ merchantAdviceCode: code, attemptsOnCard: 1, failedAt }), null, code);
  });

  it('treats a missing or unknown code as a soft decline', () => {
    assert.equal(nextRetryAt({ merchantAdviceCode: null, attemptsOnCard: 1, failedAt })?.toISOString(), dayLater);
    assert.equal(nextRetryAt({ merchantAdviceCode: '40', attemptsOnCard: 2, failedAt })?.toISOString(), dayLater);
  });

  it('waits for a card when there is none', () => {
    assert.equal(nextRetryAt({ merchantAdviceCode: null, attemptsOnCard: 1, failedAt, noCard: true }), null);
  });
});
