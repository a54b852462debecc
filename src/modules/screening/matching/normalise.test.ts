import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameTokens, phoneticCodes } from './normalise.ts';

describe('name normalisation', () => {
  it('folds case, accents and other scripts into ASCII tokens', () => {
    assert.deepEqual(nameTokens('Zoë  ÅNGSTRÖM', 'person'), ['zoe', 'angstrom']);
    assert.deepEqual(nameTokens('Борис Иванович Карлов', 'person'), ['boris', 'ivanovich', 'karlov']);
  });

  it('removes honorifics and punctuation from people', () => {
    assert.deepEqual(nameTokens('Dr. Amira Hassan EL-SAYED', 'person'), ['amira', 'hassan', 'elsayed']);
    assert.deepEqual(nameTokens("Sheikh Yusuf O'Neill", 'person'), ['yusuf', 'oneill']);
    assert.deepEqual(nameTokens('B.I. Karlov', 'person'), ['b', 'i', 'karlov']);
  });

  it('joins the Arabic article to its noun and drops bin/ibn', () => {
    for (const name of ['Amira El-Sayed', 'Amira El Sayed', 'Amira Elsayed']) assert.deepEqual(nameTokens(name, 'person'), ['amira', 'elsayed']);
    assert.deepEqual(nameTokens('Khalid bin Waleed', 'person'), ['khalid', 'waleed']);
  });

  it('removes legal forms from businesses, keeping digits', () => {
    assert.deepEqual(nameTokens('Northwind Trading FZE', 'business'), ['northwind', 'trading']);
    assert.deepEqual(nameTokens('NORTHWIND TRADING PTY. LTD.', 'business'), ['northwind', 'trading']);
    assert.deepEqual(nameTokens('Northwind Trading Proprietary Limited', 'business'), ['northwind', 'trading']);
    assert.deepEqual(nameTokens('Acme S.A.', 'business'), ['acme']);
    assert.deepEqual(nameTokens('Smith & Sons Co., Ltd', 'business'), ['smith', 'sons']);
    assert.deepEqual(nameTokens('7-Eleven Stores', 'business'), ['7', 'eleven', 'stores']);
  });

  it('keeps a name made only of noise words', () => {
    assert.deepEqual(nameTokens('The Company Ltd', 'business'), ['the', 'company', 'ltd']);
    assert.deepEqual(nameTokens('Mr', 'person'), ['mr']);
  });

  it('gives spelling variants the same phonetic code, and none to an initial', () => {
    assert.deepEqual(phoneticCodes('karlov'), phoneticCodes('karlof'));
    assert.deepEqual(phoneticCodes('mohammed'), phoneticCodes('muhammad'));
    assert.notDeepEqual(phoneticCodes('karlov'), phoneticCodes('karpov'));
    assert.deepEqual(phoneticCodes('b'), []);
  });
});
