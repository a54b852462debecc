import assert from 'node:assert/strict';
import { it } from 'node:test';
import { roleWords } from './report-words.ts';

it('says a role in words in a report, keeping what it has no words for as given', () => {
  assert.equal(roleWords({ role: 'UBO', roleDescription: 'DIRECTOR, SECRETARY' }, 'WATTLE CREEK LOGISTICS PTY LTD'), 'Beneficial owner, director and company secretary of WATTLE CREEK LOGISTICS PTY LTD');
  assert.equal(roleWords({ role: 'DIRECTOR', roleDescription: 'CFO' }, 'Acme Pty Ltd'), 'Director of Acme Pty Ltd · CFO');
  assert.equal(roleWords({ role: 'TRUSTEE', roleDescription: 'Trustee of the Smith Family Trust' }), 'Trustee · Trustee of the Smith Family Trust');
});
