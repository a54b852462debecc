// ISO 3166 country codes and their English names. The package's Node entry loads the names in all of its
// 78 languages (84 modules, in every process that touches a country); PVS names countries in English only.
import countries from 'i18n-iso-countries/index.js';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(en);

export default countries;
