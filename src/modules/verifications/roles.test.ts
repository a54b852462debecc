import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partiesOf, roleOf } from './roles.ts';

describe('verification roles', () => {
  it('keeps a listed role, whatever its case, and stores anything else as OTHER', () => {
    assert.equal(roleOf('director'), 'DIRECTOR');
    assert.equal(roleOf(' TRUSTEE '), 'TRUSTEE');
    assert.equal(roleOf('CHIEF_WIZARD'), 'OTHER');
    assert.equal(roleOf(undefined), 'OTHER');
  });

  it('makes one party per person with the most significant role, naming the others', () => {
    assert.deepEqual(
      partiesOf([
        { idvEntityId: 'ent_a', role: 'DIRECTOR' },
        { idvEntityId: 'ent_b', role: 'SECRETARY' },
        { idvEntityId: 'ent_a', role: 'UBO' },
        { idvEntityId: 'ent_b', role: 'DIRECTOR' },
        { idvEntityId: 'ent_c', role: 'UBO' },
        { idvEntityId: 'ent_a', role: 'SECRETARY' },
      ]),
      [
        { idvEntityId: 'ent_a', role: 'UBO', roleDescription: 'DIRECTOR, SECRETARY' },
        { idvEntityId: 'ent_b', role: 'DIRECTOR', roleDescription: 'SECRETARY' },
        { idvEntityId: 'ent_c', role: 'UBO', roleDescription: null },
      ],
    );
  });

  it('maps a secretary to OFFICER and a shareholder to MEMBER', () => {
    assert.deepEqual(
      partiesOf([
        { idvEntityId: 'ent_s', role: 'SECRETARY' },
        { idvEntityId: 'ent_h', role: 'SHAREHOLDER' },
      ]).map((p) => p.role),
      ['OFFICER', 'MEMBER'],
    );
  });
});
