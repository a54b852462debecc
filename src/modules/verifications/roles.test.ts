import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRoles, partiesOf, roleEntity, roleOf } from './roles.ts';

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

  it('says a person’s roles in words, for a sentence and for a label, with the register’s other roles', () => {
    assert.deepEqual(describeRoles('UBO', 'DIRECTOR, SECRETARY'), {
      roles: 'a beneficial owner, director and company secretary',
      label: 'Beneficial owner, director and company secretary',
      described: null,
      unnamed: [],
    });
    assert.deepEqual(describeRoles('DIRECTOR', 'SECRETARY'), { roles: 'a director and company secretary', label: 'Director and company secretary', described: null, unnamed: [] });
    assert.deepEqual(describeRoles('SETTLOR', 'BENEFICIARY'), { roles: 'the settlor and a beneficiary', label: 'Settlor and beneficiary', described: null, unnamed: [] });
    assert.deepEqual(describeRoles('OFFICER', null), { roles: 'an officer', label: 'Officer', described: null, unnamed: [] });
  });

  it('says nothing of a code it does not know, and keeps the partner’s own description apart', () => {
    assert.deepEqual(describeRoles('OTHER', 'CHIEF_WIZARD'), { roles: null, label: null, described: null, unnamed: ['CHIEF_WIZARD'] });
    assert.deepEqual(describeRoles('DIRECTOR', 'CHIEF_WIZARD, SECRETARY'), { roles: 'a director and company secretary', label: 'Director and company secretary', described: null, unnamed: ['CHIEF_WIZARD'] });
    assert.deepEqual(describeRoles('DIRECTOR', 'DIRECTOR'), { roles: 'a director', label: 'Director', described: null, unnamed: [] }, 'a role said once');
    assert.deepEqual(describeRoles('TRUSTEE', 'Trustee of the Smith Family Trust'), { roles: 'a trustee', label: 'Trustee', described: 'Trustee of the Smith Family Trust', unnamed: [] });
  });

  it('hands a report the codes it has no words for, as given', () => {
    assert.deepEqual(describeRoles('DIRECTOR', 'CHIEF_WIZARD, SECRETARY').unnamed, ['CHIEF_WIZARD']);
    assert.deepEqual(describeRoles('DIRECTOR', 'CFO').unnamed, ['CFO']);
    assert.deepEqual(describeRoles('UBO', 'DIRECTOR, SECRETARY').unnamed, []);
    assert.deepEqual(describeRoles('TRUSTEE', 'Trustee of the Smith Family Trust').unnamed, [], 'the partner’s own words are `described`');
    assert.deepEqual(describeRoles('DIRECTOR', null).unnamed, []);
  });

  it('names the business a role is of, except for a sole trader’s owner, whose business is their own name', () => {
    assert.equal(roleEntity('DIRECTOR', 'WATTLE CREEK LOGISTICS PTY LTD'), 'WATTLE CREEK LOGISTICS PTY LTD');
    assert.equal(roleEntity('INDIVIDUAL_OWNER', 'KINGSLEY, OLIVER JAMES'), null);
    assert.equal(roleEntity('DIRECTOR', null), null);
  });
});
