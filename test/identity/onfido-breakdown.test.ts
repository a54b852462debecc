// Onfido's own results as evidence (onfido-breakdown.ts): the walk of every report's breakdown, on reports
// as the stand-in makes them from Onfido's API description, and on shapes Onfido never documented (too
// deep, too long, names and results that are not its words). Nothing a person gave or Onfido read may
// come through: the reports below carry a person's details in `properties`, where Onfido puts them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxDepth, maxItemsPerReport, maxReports, providerResultsOf } from '../../src/providers/identity/onfido/onfido-breakdown.ts';
import { outcomeOf, type Scenario } from '../helpers/onfido-stand-in/scenarios.ts';

const person = { first_name: 'Giuliana', last_name: 'Marchetti-Okafor', dob: '1979-02-13', address: { postcode: '5067', country: 'AUS', line1: '67 Kurrajong Lane' } };
const personal = ['Giuliana', 'Marchetti-Okafor', '1979-02-13', '5067', '67 Kurrajong Lane', 'PA4471923'];

/** One check's reports, as Onfido lists them, in the scenario's outcome, with what Onfido read in `properties`. */
function reportsOf(scenario: Scenario) {
  const facts = { applicant: { id: 'applicant-1', details: person }, document: { id: 'doc-1', type: 'passport', issuingCountry: 'AUS' }, completedAt: new Date('2026-11-27T09:00:00Z') };
  return ['document', 'facial_similarity_photo', 'identity_enhanced'].map((name) => {
    const outcome = outcomeOf(name, scenario, facts);
    // What Onfido read off the passport, as its document report gives it.
    const properties = { ...outcome.properties, document_numbers: [{ type: 'document_number', value: 'PA4471923' }], address: person.address };
    return { id: `report-${name}`, name, status: 'complete', sub_result: null, ...outcome, properties, check_id: 'check-1' };
  });
}

const items = (report: { breakdown: Array<{ item: string; result: string }> }) => report.breakdown.map((b) => `${b.item} ${b.result}`);

describe('Onfido’s own results', () => {
  it('a document to look at closely: the report’s result and sub-result, and the sub-check that said so', () => {
    const results = providerResultsOf(reportsOf('caution'));
    assert.equal(results.provider, 'onfido');
    assert.deepEqual(
      results.reports.map((r) => [r.name, r.status, r.result, r.subResult]),
      [
        ['document', 'complete', 'consider', 'caution'],
        ['facial_similarity_photo', 'complete', 'clear', null],
        ['identity_enhanced', 'complete', 'clear', null],
      ],
    );
    const document = results.reports[0]!;
    assert.deepEqual(
      items(document).filter((i) => !i.endsWith(' clear')),
      ['data_validation consider', 'data_validation.document_expiration consider'],
    );
    // Each group, then the sub-checks inside it, in Onfido's order.
    assert.deepEqual(items(document).slice(0, 3), ['data_comparison clear', 'data_comparison.issuing_country clear', 'data_comparison.gender clear']);
    assert.ok(items(document).includes('visual_authenticity.original_document_present clear'));
    assert.ok(items(document).includes('police_record clear'), 'a sub-check with no breakdown of its own');
    assert.equal(document.breakdown.length, 7 + 8 + 6 + 4 + 8 + 10 + 2, 'every group and every sub-check of the stand-in’s document report');
  });

  it('a spoofed selfie and a record not found: the face report’s three levels, the records report unidentified', () => {
    const spoof = providerResultsOf(reportsOf('spoof')).reports[1]!;
    assert.deepEqual(items(spoof), [
      'face_comparison clear',
      'face_comparison.face_match clear',
      'image_integrity clear',
      'image_integrity.face_detected clear',
      'image_integrity.source_integrity clear',
      'visual_authenticity consider',
      'visual_authenticity.spoofing_detection consider',
    ]);
    const record = providerResultsOf(reportsOf('unidentified')).reports[2]!;
    assert.equal(record.result, 'unidentified');
    assert.ok(items(record).includes('address.credit_agencies consider'));
  });

  it('carries nothing a person gave or Onfido read: no name, date of birth, postcode, address or document number', () => {
    for (const scenario of ['clear', 'consider', 'rejected', 'suspected', 'caution', 'spoof', 'unidentified'] as const) {
      const reports = reportsOf(scenario);
      // The test would prove nothing if the reports did not carry them.
      assert.ok(personal.every((p) => JSON.stringify(reports).includes(p)), `${scenario}: the reports hold the person’s details`);
      const text = JSON.stringify(providerResultsOf(reports));
      assert.deepEqual(personal.filter((p) => text.includes(p)), [], scenario);
      assert.doesNotMatch(text, /properties|score|check-1|report-|doc-1|applicant-1/, scenario);
    }
  });

  it('takes only names and results that are Onfido’s words: a value in their place is left out', () => {
    const results = providerResultsOf([
      {
        name: 'document',
        status: 'complete',
        result: 'consider',
        sub_result: 'Giuliana Marchetti-Okafor',
        breakdown: {
          'Giuliana Marchetti-Okafor': { result: 'consider' },
          '1979-02-13': { result: 'clear' },
          'data.comparison': { result: 'clear' },
          ['x'.repeat(61)]: { result: 'clear' },
          first_name: { result: 'GIULIANA' },
          last_name: { result: 'consider', breakdown: { 'Marchetti': { result: 'consider' }, exact: { result: 'consider' } } },
          date_of_birth: { result: '1979-02-13' },
          gender: { result: 42 },
          nationality: { result: { value: 'AUS' } },
          mrz: { result: null, breakdown: { check_digits: { result: 'clear' } } },
          document_numbers: 'PA4471923',
          issuing_country: ['AUS'],
          expiry: { result: 'clear; see PA4471923' },
          ['x'.repeat(60)]: { result: 'clear' },
        },
      },
      { name: 'Giuliana', result: 'clear' },
      { name: 'document; drop', result: 'clear' },
      { result: 'clear' },
      'PA4471923',
      null,
      ['document'],
    ]);
    assert.deepEqual(results.reports.map((r) => [r.name, r.status, r.result, r.subResult]), [['document', 'complete', 'consider', null]]);
    assert.deepEqual(items(results.reports[0]!), ['last_name consider', 'last_name.exact consider', 'mrz.check_digits clear', `${'x'.repeat(60)} clear`]);
    const text = JSON.stringify(results);
    assert.deepEqual(['Giuliana', 'GIULIANA', 'Marchetti', '1979-02-13', 'AUS', 'PA4471923'].filter((p) => text.includes(p)), []);
  });

  it('stops at three levels deep and at 200 sub-checks a report, and reads 20 reports at most', () => {
    let deep: Record<string, unknown> = { result: 'consider' };
    for (let level = 6; level >= 1; level--) deep = { result: 'consider', breakdown: { [`level_${level}`]: deep } };
    const nested = providerResultsOf([{ name: 'document', breakdown: (deep as { breakdown: unknown }).breakdown }]).reports[0]!;
    assert.equal(maxDepth, 3);
    assert.deepEqual(items(nested), ['level_1 consider', 'level_1.level_2 consider', 'level_1.level_2.level_3 consider']);

    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`item_${i}`, { result: 'clear', breakdown: { inner: { result: 'clear' } } }]));
    const long = providerResultsOf([{ name: 'document', breakdown: wide }]).reports[0]!;
    assert.equal(long.breakdown.length, maxItemsPerReport);

    const many = providerResultsOf(Array.from({ length: 50 }, () => ({ name: 'document', result: 'clear' })));
    assert.equal(many.reports.length, maxReports);
  });

  it('a report not complete: its status, and null for the result it did not give', () => {
    const [withdrawn] = providerResultsOf([{ name: 'identity_enhanced', status: 'withdrawn', result: null, sub_result: null, breakdown: null }]).reports;
    assert.deepEqual(withdrawn, { name: 'identity_enhanced', status: 'withdrawn', result: null, subResult: null, breakdown: [] });
  });
});
