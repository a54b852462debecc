// Countries as lists write them (ISO codes, English names, demonyms) read to ISO 3166-1 alpha-2, upper case.
import countries from '../../../platform/iso-countries.ts';
import { itemSeparator } from './entry-fields.ts';

/** An upper-case alpha-2 code the country table knows; Kosovo's XK is one, OpenSanctions' "suhh" or "eu" are not. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/** The English name of a code, for writing lists. */
export function countryName(code: string): string {
  const name = countries.getName(code, 'en');
  if (!name) throw new Error(`no country ${code}`);
  return name;
}

/** Names the country table does not know, in the forms UN and DFAT lists write them. */
const otherNames: Record<string, string> = {
  syria: 'SY',
  burma: 'MM',
  'iran (islamic republic of)': 'IR',
  'iran, islamic republic of': 'IR',
  "democratic people's republic of korea": 'KP',
  "korea, democratic people's republic of": 'KP',
  dprk: 'KP',
  'republic of korea': 'KR',
  'venezuela (bolivarian republic of)': 'VE',
  'bolivarian republic of venezuela': 'VE',
  'viet nam': 'VN',
  "lao people's democratic republic": 'LA',
  'lao pdr': 'LA',
  moldova: 'MD',
  'republic of moldova': 'MD',
  'moldova, republic of': 'MD',
  'state of palestine': 'PS',
  'occupied palestinian territory': 'PS',
  'united republic of tanzania': 'TZ',
  'congo, democratic republic of the': 'CD',
  'republic of the congo': 'CG',
  'great britain': 'GB',
  'united states of america': 'US',
  'the former yugoslav republic of macedonia': 'MK',
};

/** Nationalities as lists write them. "Congolese" is taken as the DRC, far more often the one listed; "Korean" is left out. */
const demonyms: Record<string, string> = {
  afghan: 'AF', albanian: 'AL', algerian: 'DZ', american: 'US', angolan: 'AO', argentine: 'AR', argentinian: 'AR',
  armenian: 'AM', australian: 'AU', austrian: 'AT', azerbaijani: 'AZ', bahraini: 'BH', bangladeshi: 'BD',
  belarusian: 'BY', belarussian: 'BY', belgian: 'BE', bosnian: 'BA', brazilian: 'BR', british: 'GB', bulgarian: 'BG',
  burkinabe: 'BF', burmese: 'MM', burundian: 'BI', cambodian: 'KH', cameroonian: 'CM', canadian: 'CA',
  'central african': 'CF', chadian: 'TD', chilean: 'CL', chinese: 'CN', colombian: 'CO', congolese: 'CD',
  croatian: 'HR', cuban: 'CU', cypriot: 'CY', czech: 'CZ', danish: 'DK', dutch: 'NL', egyptian: 'EG', emirati: 'AE',
  eritrean: 'ER', estonian: 'EE', ethiopian: 'ET', fijian: 'FJ', filipino: 'PH', finnish: 'FI', french: 'FR',
  georgian: 'GE', german: 'DE', ghanaian: 'GH', greek: 'GR', guinean: 'GN', haitian: 'HT', hungarian: 'HU',
  indian: 'IN', indonesian: 'ID', iranian: 'IR', iraqi: 'IQ', irish: 'IE', israeli: 'IL', italian: 'IT',
  ivorian: 'CI', japanese: 'JP', jordanian: 'JO', kazakh: 'KZ', kazakhstani: 'KZ', kenyan: 'KE', kosovar: 'XK',
  kuwaiti: 'KW', kyrgyz: 'KG', laotian: 'LA', latvian: 'LV', lebanese: 'LB', liberian: 'LR', libyan: 'LY',
  lithuanian: 'LT', macedonian: 'MK', malaysian: 'MY', maldivian: 'MV', malian: 'ML', mauritanian: 'MR',
  mexican: 'MX', moldovan: 'MD', mongolian: 'MN', montenegrin: 'ME', moroccan: 'MA', mozambican: 'MZ',
  myanmar: 'MM', nepalese: 'NP', nepali: 'NP', 'new zealander': 'NZ', nicaraguan: 'NI', nigerian: 'NG',
  nigerien: 'NE', 'north korean': 'KP', norwegian: 'NO', omani: 'OM', pakistani: 'PK', palestinian: 'PS',
  peruvian: 'PE', polish: 'PL', portuguese: 'PT', qatari: 'QA', romanian: 'RO', russian: 'RU', rwandan: 'RW',
  saudi: 'SA', 'saudi arabian': 'SA', senegalese: 'SN', serbian: 'RS', 'sierra leonean': 'SL', singaporean: 'SG',
  slovak: 'SK', slovenian: 'SI', somali: 'SO', 'south african': 'ZA', 'south korean': 'KR', 'south sudanese': 'SS',
  spanish: 'ES', 'sri lankan': 'LK', sudanese: 'SD', swedish: 'SE', swiss: 'CH', syrian: 'SY', taiwanese: 'TW',
  tajik: 'TJ', tajikistani: 'TJ', tanzanian: 'TZ', thai: 'TH', tongan: 'TO', tunisian: 'TN', turkish: 'TR',
  turkmen: 'TM', ugandan: 'UG', ukrainian: 'UA', uzbek: 'UZ', uzbekistani: 'UZ', venezuelan: 'VE',
  vietnamese: 'VN', yemeni: 'YE', zimbabwean: 'ZW',
};

// A Map, so a name like "constructor" finds nothing on Object.prototype.
const knownNames = new Map([...Object.entries(demonyms), ...Object.entries(otherNames)]);

/** Words around a nationality that do not change it: "possibly Syrian", "citizen of Iran", "Russian (dual)". */
const qualifiers = /^(?:(?:possibly|probably|reportedly|allegedly|also|formerly|former)\s+)+|^(?:citizen|national|nationality)\s+of\s+|\s+(?:citizen|national|nationality)$|\s*\((?:dual|by birth|naturali[sz]ed)\)$/gi;

function countryCode(text: string): string | undefined {
  const name = text.replace(qualifiers, '').replace(/\.$/, '').trim().toLowerCase();
  if (name === '') return undefined;
  const known = knownNames.get(name) ?? countries.getAlpha2Code(name, 'en');
  return known ?? countries.getAlpha2Code(name.replace(/\s*\(.*\)$/, ''), 'en');
}

/**
 * The countries in a citizenship or address text: "Russian Federation", "Iranian", "a) Syrian b) Lebanese",
 * "Russian, Ukrainian". Parts that name no known country are dropped, not errors: the entry still matches on name.
 */
export function countriesFromText(text: string): string[] {
  const found: string[] = [];
  const add = (code: string | undefined) => code && !found.includes(code) && found.push(code);
  for (const piece of text.split(itemSeparator)) {
    if (piece.trim() === '') continue;
    const whole = countryCode(piece);
    // "Korea, Democratic People's Republic of" is one country; "Russian, Ukrainian" or "Syrian/Lebanese" are two.
    if (whole) add(whole);
    else for (const part of piece.split(/,|\/|&|\s+and\s+/i)) add(countryCode(part));
  }
  return found;
}

/** The country of each address: its last comma-separated part ("…, Dubai, United Arab Emirates"), when it names one. */
export function countriesFromAddresses(text: string): string[] {
  const found: string[] = [];
  for (const address of text.split(itemSeparator)) {
    const code = countryCode(address.split(',').at(-1) ?? '');
    if (code && !found.includes(code)) found.push(code);
  }
  return found;
}
