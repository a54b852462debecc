import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameRegisterName } from './person-details.ts';

describe('sameRegisterName', () => {
  const register = (givenNames: string, familyName: string) => ({ givenNames, familyName });

  it('takes the register’s capitals, a person’s accents and a middle name left out as the same name', () => {
    assert.ok(sameRegisterName({ firstName: 'Søren', lastName: 'Ærøe' }, register('Soren', 'AEROE')));
    assert.ok(sameRegisterName({ firstName: 'Zoë', lastName: 'Ñúñez-Łukasiewicz' }, register('Zoe Ines', 'NUNEZ LUKASIEWICZ')));
    assert.ok(sameRegisterName({ firstName: 'Oliver James', lastName: 'Kingsley' }, register('Oliver', 'KINGSLEY')));
    assert.ok(sameRegisterName({ firstName: 'Seán', lastName: "O'Brien" }, register('Sean Patrick', 'O BRIEN')));
  });

  it('tells another family name or first name apart', () => {
    assert.equal(sameRegisterName({ firstName: 'Şule', lastName: 'Çağlar' }, register('Sule', 'DEMIR')), false);
    assert.equal(sameRegisterName({ firstName: 'James', lastName: 'Kingsley' }, register('Oliver James', 'KINGSLEY')), false);
    assert.equal(sameRegisterName({ firstName: 'Oliver', lastName: 'Kingsley-Smith' }, register('Oliver', 'KINGSLEY')), false);
    assert.equal(sameRegisterName({ firstName: '-', lastName: 'Kingsley' }, register('', 'KINGSLEY')), false);
  });
});
