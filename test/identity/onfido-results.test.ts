// The mapping of Onfido's reports to PVS checks, on reports shaped as Onfido's API description gives them
// (test/fixtures/onfido/openapi.json: document_report, facial_similarity_photo_report,
// identity_enhanced_report), and through outcomes.ts to what each means for the individual.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outcomeOf } from '../../src/modules/verifications/outcomes.ts';
import { faceMatchThreshold, findingsOf, type OnfidoFindings, type OnfidoReport } from '../../src/providers/identity/onfido/onfido-results.ts';

const checkId = '8546921-123123-123123';
const base = { id: 'f0a3f1c0-0000-4000-8000-000000000001', created_at: '2026-03-01T00:00:00Z', href: '/v3.6/reports/x', check_id: checkId };

function documentReport(result: string, subResult: string | null, breakdown: Record<string, unknown> = {}): OnfidoReport {
  return {
    ...base,
    name: 'document',
    status: 'complete',
    result,
    sub_result: subResult,
    documents: [{ id: 'd1' }],
    breakdown: { visual_authenticity: { result: 'clear' }, image_integrity: { result: 'clear' }, police_record: { result: 'clear' }, ...breakdown },
    properties: { document_type: 'passport', issuing_country: 'AUS', document_numbers: [{ type: 'document_number', value: 'PA4471923' }], first_name: 'OLIVIA' },
  } as OnfidoReport;
}

function faceReport(result: string, considers: Array<'face_comparison' | 'visual_authenticity' | 'face_detected' | 'source_integrity'> = [], score = 0.93): OnfidoReport {
  const r = (name: string) => ({ result: considers.includes(name as never) ? 'consider' : 'clear' });
  const integrity = considers.includes('face_detected') || considers.includes('source_integrity');
  return {
    ...base,
    name: 'facial_similarity_photo',
    status: 'complete',
    result,
    sub_result: null,
    breakdown: {
      face_comparison: { ...r('face_comparison'), breakdown: { face_match: { result: r('face_comparison').result, properties: { score, document_id: 'd1' } } } },
      image_integrity: { result: integrity ? 'consider' : 'clear', breakdown: { face_detected: r('face_detected'), source_integrity: r('source_integrity') } },
      visual_authenticity: { ...r('visual_authenticity'), breakdown: { spoofing_detection: { result: r('visual_authenticity').result, properties: { score: 0.12 } } } },
    },
    properties: { score: 0.12 },
  } as OnfidoReport;
}

function recordReport(result: string, breakdown: Record<string, unknown> = {}): OnfidoReport {
  return { ...base, name: 'identity_enhanced', status: 'complete', result, sub_result: null, breakdown: { sources: { result: 'clear' }, mortality: { result: 'clear' }, ...breakdown } } as OnfidoReport;
}

const allClear = () => [documentReport('clear', 'clear'), faceReport('clear'), recordReport('clear')];
const summary = (f: OnfidoFindings) => f.checks.map((c) => `${c.checkType} ${c.result} ${c.code}`);
const statusOf = (f: OnfidoFindings) => outcomeOf({ checks: f.checks, hardFailure: f.hardFailure, amlMatches: 0 }, { attemptCount: 1, maxAttempts: 3 }).status;

describe('Onfido results', () => {
  it('all clear: every check passes, no fraud signal, and the individual passes', () => {
    const findings = findingsOf(allClear(), 'PASSPORT');
    assert.deepEqual(summary(findings), [
      'DOCUMENT PASS DOCUMENT_AUTHENTIC',
      'DOCUMENT PASS IDENTITY_RECORD_MATCHED',
      'FACE_MATCH PASS FACE_MATCH_SCORE_HIGH',
      'FRAUD PASS NO_FRAUD_SIGNALS',
    ]);
    assert.equal(findings.hardFailure, false);
    assert.deepEqual(findings.faceMatch, { score: 0.93, threshold: faceMatchThreshold, result: 'PASS' });
    assert.equal(statusOf(findings), 'PASSED');
  });

  it('takes the face score from face_comparison.face_match, never the report’s spoof score', () => {
    assert.equal(findingsOf([documentReport('clear', 'clear'), faceReport('clear', [], 0.71)], 'PASSPORT').faceMatch.score, 0.71);
    const noScore = faceReport('clear');
    delete noScore.breakdown!.face_comparison!.breakdown;
    assert.equal(findingsOf([noScore], 'PASSPORT').faceMatch.score, 0);
  });

  const cases: Array<{ name: string; reports: OnfidoReport[]; expect: string[]; hard: boolean; status: string}> = [
    { name: 'face comparison consider', reports: [documentReport('clear', 'clear'), faceReport('consider', ['face_comparison'], 0.41)], expect: ['FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'document rejected', reports: [documentReport('consider', 'rejected', { image_integrity: { result: 'consider' } }), faceReport('clear')], expect: ['DOCUMENT FAIL DOCUMENT_REJECTED'], hard: false, status: 'IN_PROGRESS' },
    { name: 'document suspected', reports: [documentReport('consider', 'suspected', { visual_authenticity: { result: 'consider' } }), faceReport('clear')], expect: ['FRAUD FAIL DOCUMENT_SUSPECTED'], hard: true, status: 'FAILED' },
    { name: 'document caution', reports: [documentReport('consider', 'caution'), faceReport('clear')], expect: ['DOCUMENT REVIEW DOCUMENT_CAUTION'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'document consider without a sub_result', reports: [documentReport('consider', null), faceReport('clear')], expect: ['DOCUMENT REVIEW DOCUMENT_CONSIDER'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'document unidentified', reports: [documentReport('unidentified', null), faceReport('clear')], expect: ['DOCUMENT REVIEW DOCUMENT_UNIDENTIFIED'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'document on a police record', reports: [documentReport('consider', 'caution', { police_record: { result: 'consider' } }), faceReport('clear')], expect: ['FRAUD FAIL DOCUMENT_REPORTED_LOST_OR_STOLEN'], hard: true, status: 'FAILED' },
    { name: 'selfie spoof', reports: [documentReport('clear', 'clear'), faceReport('consider', ['visual_authenticity'])], expect: ['FRAUD FAIL SELFIE_SPOOF_SUSPECTED'], hard: true, status: 'FAILED' },
    { name: 'selfie image unusable', reports: [documentReport('clear', 'clear'), faceReport('consider', ['face_detected'])], expect: ['FACE_MATCH FAIL FACE_IMAGE_UNUSABLE'], hard: false, status: 'IN_PROGRESS' },
    { name: 'selfie from a fake source', reports: [documentReport('clear', 'clear'), faceReport('consider', ['source_integrity'])], expect: ['FRAUD FAIL SELFIE_SOURCE_SUSPECTED'], hard: true, status: 'FAILED' },
    { name: 'face unidentified', reports: [documentReport('clear', 'clear'), faceReport('unidentified')], expect: ['FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'identity record unidentified', reports: [documentReport('clear', 'clear'), faceReport('clear'), recordReport('unidentified')], expect: ['DOCUMENT REVIEW IDENTITY_RECORD_NOT_FOUND'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'identity record consider', reports: [documentReport('clear', 'clear'), faceReport('clear'), recordReport('consider', { address: { result: 'consider' } })], expect: ['DOCUMENT REVIEW IDENTITY_RECORD_NOT_MATCHED'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'identity record on a death record', reports: [documentReport('clear', 'clear'), faceReport('clear'), recordReport('consider', { mortality: { result: 'consider' } })], expect: ['DOCUMENT REVIEW IDENTITY_RECORD_DECEASED'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'identity record withdrawn', reports: [documentReport('clear', 'clear'), faceReport('clear'), { ...recordReport('clear'), status: 'withdrawn', result: null }], expect: ['DOCUMENT REVIEW IDENTITY_RECORD_NOT_CHECKED'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'document report withdrawn', reports: [{ ...documentReport('clear', 'clear'), status: 'withdrawn', result: null }, faceReport('clear')], expect: ['DOCUMENT REVIEW DOCUMENT_NOT_CHECKED'], hard: false, status: 'MANUAL_REVIEW' },
    { name: 'face report missing', reports: [documentReport('clear', 'clear')], expect: ['FACE_MATCH REVIEW FACE_MATCH_NOT_CHECKED'], hard: false, status: 'MANUAL_REVIEW' },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.expect.join(', ')} → ${c.status}`, () => {
      const findings = findingsOf(c.reports, 'DRIVER_LICENCE');
      assert.deepEqual(summary(findings).filter((s) => !s.includes(' PASS ')), c.expect);
      assert.equal(findings.hardFailure, c.hard);
      assert.equal(summary(findings).includes('FRAUD PASS NO_FRAUD_SIGNALS'), !c.hard, 'NO_FRAUD_SIGNALS exactly when no fraud signal');
      assert.equal(statusOf(findings), c.status);
    });
  }

  it('a spoofed selfie still reports the face comparison, and a face REVIEW sets faceMatch.result', () => {
    const spoof = findingsOf([documentReport('clear', 'clear'), faceReport('consider', ['visual_authenticity'])], 'PASSPORT');
    assert.deepEqual(summary(spoof), ['DOCUMENT PASS DOCUMENT_AUTHENTIC', 'FACE_MATCH PASS FACE_MATCH_SCORE_HIGH', 'FRAUD FAIL SELFIE_SPOOF_SUSPECTED']);
    const review = findingsOf([documentReport('clear', 'clear'), faceReport('consider', ['face_comparison'], 0.38)], 'PASSPORT');
    assert.deepEqual(review.faceMatch, { score: 0.38, threshold: faceMatchThreshold, result: 'REVIEW' });
  });

  it('everything consider: a hard failure', () => {
    const findings = findingsOf(
      [documentReport('consider', 'suspected', { visual_authenticity: { result: 'consider' } }), faceReport('consider', ['face_comparison', 'visual_authenticity', 'face_detected']), recordReport('consider')],
      'PASSPORT',
    );
    assert.equal(findings.hardFailure, true);
    assert.equal(statusOf(findings), 'FAILED');
    assert.ok(!summary(findings).includes('FRAUD PASS NO_FRAUD_SIGNALS'));
  });

  it('ignores reports it did not ask for, and never puts what Onfido read in a message or code', () => {
    const findings = findingsOf([...allClear(), { ...base, name: 'watchlist_standard', status: 'complete', result: 'consider' }], 'PASSPORT');
    assert.equal(findings.checks.length, 4);
    const text = JSON.stringify(findings);
    for (const personal of ['OLIVIA', 'PA4471923', 'AUS', checkId]) assert.ok(!text.includes(personal), personal);
    for (const c of findingsOf(cases.flatMap((x) => x.reports), 'PASSPORT').checks) assert.match(c.code, /^[A-Z][A-Z0-9_]*$/);
  });
});
