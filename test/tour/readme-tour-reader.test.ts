// How the tour test reads the README: its steps, and sample output that matches what varies from run to
// run but nothing else.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchesSample, readTour, samplePattern } from './readme-tour.ts';

const readme = [
  '# PVS',
  '## A five-minute tour',
  '```text',
  '$ npm start',
  'PVS running',
  '```',
  '```sh',
  'ID=$(curl -s http://localhost:3000/v1/x \\',
  '  -d \'{}\' | json .id)',
  'curl -s http://localhost:3000/v1/x/$ID',
  '# {"id":"ptn_01M7…","status":"OK",',
  '#  "at":"2026-11-21T10:19:46.900Z"}',
  '# second line',
  '```',
  '<!-- tour: pay -->',
  '## The `pvs` command',
  '```sh',
  'not part of the tour',
  '```',
].join('\n');

describe('reading the tour', () => {
  test('transcripts, commands with their continuation lines and output, and actions, in order, within the section', () => {
    const steps = readTour(readme);
    assert.deepEqual(
      steps.map((s) => s.kind),
      ['transcript', 'commands', 'action'],
    );
    const step = steps[1]!;
    const commands = step.kind === 'commands' ? step.commands : [];
    assert.equal(commands.length, 2);
    assert.equal(commands[0]!.text, "ID=$(curl -s http://localhost:3000/v1/x \\\n  -d '{}' | json .id)");
    assert.deepEqual(commands[0]!.expected, []);
    assert.deepEqual(commands[1]!.expected, ['{"id":"ptn_01M7…","status":"OK","at":"2026-11-21T10:19:46.900Z"}', 'second line']);
  });

  test('a README without the section is refused', () => {
    assert.throws(() => readTour('# PVS\n'), /no "## A five-minute tour" section/);
  });
});

describe('matching sample output', () => {
  test('ids, timestamps, clock times and … stand for what varies', () => {
    assert.ok(samplePattern('{"id":"ptn_01M7…","at":"2026-11-21T10:19:46.900Z"}').test('{"id":"ptn_01M8EMV5T92Q8DT85RT66QNAAV","at":"2027-01-02T03:04:05.006Z"}'));
    assert.ok(samplePattern('partnerId     ptn_01M7YSX1AM3TXGDKX1GDD1CEXA').test('partnerId     ptn_01M8EMV5T92Q8DT85RT66QNAAV'));
    assert.ok(samplePattern('13:40:02  payment.succeeded  evt_…  verified').test('09:01:59  payment.succeeded  evt_01M8EMVR0M5G9HNPA12KPBBXZM  verified'));
    assert.ok(matchesSample('{"a":1,"b":2}\nmore\n', ['{"a":1,…}', 'more']));
    assert.ok(matchesSample('one\ntwo\nthree\n', ['…']));
  });

  test('anything else must be as shown', () => {
    assert.ok(!samplePattern('{"status":"PASSED",…}').test('{"status":"FAILED","x":1}'));
    assert.ok(!samplePattern('{"a":1}').test('{"a":1} and more'));
    assert.ok(!samplePattern('{"id":"ptn_01M7…"}').test('{"id":"cli_01M8EMV5T92Q8DT85RT66QNAAV"}'));
    assert.ok(!samplePattern('"dateOfBirth":"1974-08-11"').test('"dateOfBirth":"1974-08-12"'));
    assert.ok(!matchesSample('one\ntwo\n', ['one']));
  });
});
