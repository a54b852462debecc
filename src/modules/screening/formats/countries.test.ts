import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countriesFromAddresses, countriesFromText, isCountryCode } from './countries.ts';

describe('reading countries as lists write them', () => {
  it('reads English names, official names and UN forms', () => {
    assert.deepEqual(countriesFromText('Russian Federation'), ['RU']);
    assert.deepEqual(countriesFromText('Iran (Islamic Republic of)'), ['IR']);
    assert.deepEqual(countriesFromText('Syrian Arab Republic'), ['SY']);
    assert.deepEqual(countriesFromText("Korea, Democratic People's Republic of"), ['KP']);
    assert.deepEqual(countriesFromText('Burma'), ['MM']);
    assert.deepEqual(countriesFromText('Bosnia and Herzegovina'), ['BA']);
  });

  it('reads demonyms in any case, with qualifiers', () => {
    assert.deepEqual(countriesFromText('Russian'), ['RU']);
    assert.deepEqual(countriesFromText('IRANIAN'), ['IR']);
    assert.deepEqual(countriesFromText('North Korean'), ['KP']);
    assert.deepEqual(countriesFromText('possibly Yemeni'), ['YE']);
    assert.deepEqual(countriesFromText('citizen of Iraq'), ['IQ']);
  });

  it('reads several countries, once each', () => {
    assert.deepEqual(countriesFromText('a) Syrian b) Lebanese'), ['SY', 'LB']);
    assert.deepEqual(countriesFromText('Russian, Ukrainian'), ['RU', 'UA']);
    assert.deepEqual(countriesFromText('Syrian/Lebanese; Syria'), ['SY', 'LB']);
  });

  it('drops what names no country', () => {
    assert.deepEqual(countriesFromText('Atlantis'), []);
    assert.deepEqual(countriesFromText('Korean'), []);
    assert.deepEqual(countriesFromText('Chechen, Russian'), ['RU']);
    assert.deepEqual(countriesFromText(''), []);
    assert.deepEqual(countriesFromText('constructor'), []);
  });

  it('takes the country of an address from its last part', () => {
    assert.deepEqual(countriesFromAddresses('Office 1407, Jebel Ali Free Zone, Dubai, United Arab Emirates'), ['AE']);
    assert.deepEqual(countriesFromAddresses('a) Damascus, Syria b) Beirut, Lebanon'), ['SY', 'LB']);
    assert.deepEqual(countriesFromAddresses('Georgia Street, Vancouver'), []);
  });

  it('knows ISO alpha-2 codes and Kosovo, not regional or made-up codes', () => {
    for (const code of ['RU', 'AU', 'XK']) assert.equal(isCountryCode(code), true, code);
    for (const code of ['ru', 'EU', 'ZZ', 'SUHH', 'R']) assert.equal(isCountryCode(code), false, code);
  });
});
