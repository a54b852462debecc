// Synthetic passport data pages for the machine-readable zone reader: drawn with sharp from a seed, so the
// same seed gives the same page on every run. A light patterned page, a photo box, labels and values in
// Noto Sans, and the two zone lines in Noto Sans Mono at a real page's proportions (125 × 88 mm at
// 10 px/mm; the zone about an eighth of the height, at the foot). Real passports print the zone in OCR-B,
// which no npm package ships; Noto Sans Mono is the nearest monospaced font we have.
//
// Every person is made up. Each case carries what the person would have typed (a diacritic now and then)
// and the zone lines the page prints, whose check digits are right except in `wrongCheckDigit`.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { checkDigit, formatTd3, type Td3Field } from '../../src/modules/verifications/mrz/icao9303.ts';

const require = createRequire(import.meta.url);
const sansFont = require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');
const monoFont = path.join(path.dirname(require.resolve('@expo-google-fonts/noto-sans-mono/package.json')), '400Regular/NotoSansMono_400Regular.ttf');

export const passportVariants = ['clean', 'wrongCheckDigit', 'rotated', 'blurred', 'skewed', 'lowContrast', 'noisy', 'jpegLowQuality', 'smallPhone'] as const;
export type PassportVariant = (typeof passportVariants)[number];

/** What the person typed on the verification page, as mrz-compare takes it. */
export interface TypedDetails {
  firstName: string;
  middleName?: string;
  lastName: string;
  dateOfBirth: string;
  document: { number: string; expiryDate?: string; issuingCountry: string };
}

export interface PassportImage {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

export interface PassportCase {
  seed: number;
  variant: PassportVariant;
  image: PassportImage;
  /** What the page prints in its zone. */
  mrz: [string, string];
  typed: TypedDetails;
  /** The check digits the zone gets wrong on purpose (only `wrongCheckDigit` has one). */
  invalidCheckDigits: Td3Field[];
  /** What was done to the page, e.g. `rotated 5.2°`, for a failing test's message. */
  transform: string;
}

/** Mulberry32: a small seeded generator, good enough to draw made-up people. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    between: (low: number, high: number) => low + next() * (high - low),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    sign: () => (next() < 0.5 ? -1 : 1),
  };
}
type Random = ReturnType<typeof createRandom>;

// [as typed, as the zone writes it (ICAO 9303 Part 3 transliteration, chosen by the issuing state)]
const surnames: ReadonlyArray<readonly [string, string]> = [
  ['Eriksson', 'ERIKSSON'],
  ['Müller-Lüdenscheidt', 'MULLER<LUDENSCHEIDT'],
  ["O'Connor", 'OCONNOR'],
  ['Nguyen', 'NGUYEN'],
  ['García Márquez', 'GARCIA<MARQUEZ'],
  ['Kowalczyk', 'KOWALCZYK'],
  ['Ødegård', 'OEDEGAARD'],
  ['Šimić', 'SIMIC'],
  ['Björklund', 'BJORKLUND'],
  ['Papadopoulos', 'PAPADOPOULOS'],
  ['van der Berg', 'VAN<DER<BERG'],
  ['MacDonald', 'MACDONALD'],
  ['Smith', 'SMITH'],
  ['Tanaka', 'TANAKA'],
  ['Okonkwo', 'OKONKWO'],
  ['Fernández', 'FERNANDEZ'],
  ['Schröder', 'SCHROEDER'],
  ['Çelik', 'CELIK'],
  ['Wójcik', 'WOJCIK'],
  ['Hughes', 'HUGHES'],
  ['Lefèvre', 'LEFEVRE'],
  ['Zheng', 'ZHENG'],
];
const givenNames: ReadonlyArray<readonly [string, string]> = [
  ['Zoë', 'ZOE'],
  ['Anna', 'ANNA'],
  ['Maria', 'MARIA'],
  ['José', 'JOSE'],
  ['François', 'FRANCOIS'],
  ['Łukasz', 'LUKASZ'],
  ['Siân', 'SIAN'],
  ['Jürgen', 'JUERGEN'],
  ['Renée', 'RENEE'],
  ['Ana-Sofía', 'ANA<SOFIA'],
  ['Aoife', 'AOIFE'],
  ['Chloé', 'CHLOE'],
  ['Ibrahim', 'IBRAHIM'],
  ['Mei', 'MEI'],
  ['Olumide', 'OLUMIDE'],
  ['Charlotte', 'CHARLOTTE'],
  ['Søren', 'SOEREN'],
  ['Thomas', 'THOMAS'],
  ['Grace', 'GRACE'],
  ['Oliver', 'OLIVER'],
];
// [alpha-2 as typed, the zone's code, the country's name as the page prints it]
const states: ReadonlyArray<readonly [string, string, string]> = [
  ['AU', 'AUS', 'AUSTRALIA'],
  ['GB', 'GBR', 'UNITED KINGDOM'],
  ['DE', 'D', 'BUNDESREPUBLIK DEUTSCHLAND'],
  ['NZ', 'NZL', 'NEW ZEALAND'],
  ['CA', 'CAN', 'CANADA'],
  ['FR', 'FRA', 'RÉPUBLIQUE FRANÇAISE'],
  ['IE', 'IRL', 'IRELAND'],
  ['SE', 'SWE', 'SVERIGE'],
  ['NL', 'NLD', 'KONINKRIJK DER NEDERLANDEN'],
  ['NO', 'NOR', 'NORGE'],
  ['PL', 'POL', 'RZECZPOSPOLITA POLSKA'],
  ['JP', 'JPN', 'JAPAN'],
];
const months = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const germanAlphabet = 'CFGHJKLMNPRTVWXYZ0123456789';

const digits = (random: Random, n: number) => Array.from({ length: n }, () => random.int(10)).join('');
const draw = (random: Random, alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[random.int(alphabet.length)]).join('');

function documentNumber(random: Random, zoneState: string): string {
  if (zoneState === 'D') return 'C' + draw(random, germanAlphabet, 8);
  switch (random.int(4)) {
    case 0:
      return draw(random, letters, 2) + digits(random, 7);
    case 1:
      return digits(random, 9);
    case 2:
      return draw(random, letters, 2) + digits(random, 6);
    default:
      return draw(random, letters, 1) + digits(random, 7);
  }
}

function date(random: Random, fromYear: number, toYear: number) {
  const year = fromYear + random.int(toYear - fromYear + 1);
  const month = 1 + random.int(12);
  const day = 1 + random.int(28);
  const two = (n: number) => String(n).padStart(2, '0');
  return { iso: `${year}-${two(month)}-${two(day)}`, zone: `${two(year % 100)}${two(month)}${two(day)}`, printed: `${two(day)} ${months[month - 1]} ${year}` };
}

interface Person {
  typed: TypedDetails;
  mrz: [string, string];
  printed: { state: string; code: string; number: string; surname: string; givenNames: string; nationality: string; dateOfBirth: string; sex: string; expiry: string; issued: string };
}

function drawPerson(random: Random): Person {
  const [alpha2, zoneState, stateName] = random.pick(states);
  const [typedSurname, zoneSurname] = random.pick(surnames);
  const [typedFirst, zoneFirst] = random.pick(givenNames);
  const middle = random.chance(0.35) ? random.pick(givenNames.filter(([typed]) => typed !== typedFirst)) : undefined;
  const number = documentNumber(random, zoneState);
  const born = date(random, 1945, 2006);
  const expires = date(random, 2026, 2036);
  const issued = date(random, 2016, 2025);
  const sex = random.pick(['M', 'F', 'F', 'M', '<'] as const);
  const personalNumber = random.chance(0.3) ? digits(random, random.pick([9, 11, 14])) : '';
  const mrz = formatTd3({
    issuingState: zoneState,
    surname: zoneSurname,
    givenNames: middle ? `${zoneFirst}<${middle[1]}` : zoneFirst,
    documentNumber: number,
    nationality: zoneState,
    dateOfBirth: born.zone,
    sex,
    expiryDate: expires.zone,
    personalNumber,
    emptyPersonalNumberCheck: random.chance(0.3) ? '0' : '<',
  });
  // People type their document number as they see it: sometimes in lower case, sometimes with a space.
  const typedNumber = random.chance(0.2) ? number.toLowerCase() : random.chance(0.2) ? `${number.slice(0, 4)} ${number.slice(4)}` : number;
  return {
    typed: {
      firstName: typedFirst,
      ...(middle ? { middleName: middle[0] } : {}),
      lastName: typedSurname,
      dateOfBirth: born.iso,
      document: { number: typedNumber, expiryDate: expires.iso, issuingCountry: alpha2 },
    },
    mrz,
    printed: {
      state: stateName,
      code: zoneState === 'D' ? 'D' : zoneState,
      number,
      surname: typedSurname.toUpperCase(),
      givenNames: (middle ? `${typedFirst} ${middle[0]}` : typedFirst).toUpperCase(),
      nationality: stateName,
      dateOfBirth: born.printed,
      sex: sex === '<' ? 'X' : sex,
      expiry: expires.printed,
      issued: issued.printed,
    },
  };
}

/**
 * Line 2 with one check digit moved off its value, as on an altered page. When it is not the composite,
 * the composite is recomputed over the line as printed, so that exactly one check digit is wrong.
 */
function spoilCheckDigit(random: Random, line2: string): { line2: string; field: Td3Field } {
  const field = random.pick(['documentNumber', 'dateOfBirth', 'expiryDate', 'composite'] as const);
  const at = { documentNumber: 9, dateOfBirth: 19, expiryDate: 27, composite: 43 }[field];
  const wrong = String((Number(line2[at]) + 1 + random.int(9)) % 10);
  const spoilt = line2.slice(0, at) + wrong + line2.slice(at + 1);
  if (field === 'composite') return { line2: spoilt, field };
  return { line2: spoilt.slice(0, 43) + checkDigit(spoilt.slice(0, 10) + spoilt.slice(13, 20) + spoilt.slice(21, 43)), field };
}

const pageWidth = 1250;
const pageHeight = 880;

const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function textLayer(text: string, font: string, fontfile: string, colour: string): Promise<{ input: Buffer; width: number; height: number }> {
  const { data, info } = await sharp({ text: { text: `<span foreground="${colour}">${escapeMarkup(text)}</span>`, font, fontfile, rgba: true, dpi: 72 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

function backgroundSvg(random: Random): string {
  const hue = random.int(360);
  const waves: string[] = [];
  for (let i = 0; i < 26; i++) {
    const y0 = 40 + i * 28;
    const amplitude = 10 + random.int(30);
    const period = 80 + random.int(160);
    let d = `M 0 ${y0}`;
    for (let x = 10; x <= pageWidth; x += 10) d += ` L ${x} ${(y0 + amplitude * Math.sin((x / period) * 2 * Math.PI + i)).toFixed(1)}`;
    waves.push(`<path d="${d}" fill="none" stroke="hsl(${hue}, 45%, 78%)" stroke-width="1.2" opacity="0.55"/>`);
  }
  const rosette: string[] = [];
  const cx = 820 + random.int(200);
  const cy = 330 + random.int(120);
  for (let i = 0; i < 36; i++) rosette.push(`<ellipse cx="${cx}" cy="${cy}" rx="170" ry="60" transform="rotate(${i * 5} ${cx} ${cy})" fill="none" stroke="hsl(${(hue + 40) % 360}, 40%, 80%)" stroke-width="1"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${pageWidth}" height="${pageHeight}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue}, 35%, 94%)"/><stop offset="1" stop-color="hsl(${(hue + 30) % 360}, 30%, 90%)"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  ${waves.join('\n')}
  ${rosette.join('\n')}
  <rect x="48" y="150" width="300" height="380" fill="hsl(${hue}, 8%, 82%)" stroke="hsl(${hue}, 10%, 60%)"/>
  <ellipse cx="198" cy="290" rx="78" ry="98" fill="hsl(${hue}, 6%, 62%)"/>
  <path d="M 70 530 C 90 420, 306 420, 326 530 Z" fill="hsl(${hue}, 6%, 55%)"/>
  <path d="M 420 ${600 + random.int(20)} c 30 -40, 60 40, 90 0 s 60 -30, 90 10 s 40 -20, 70 -5" fill="none" stroke="#1f2a5a" stroke-width="2.5"/>
</svg>`;
}

/** The page as printed, before any photographic damage: raw RGB pixels. */
async function drawPage(random: Random, person: Person): Promise<Buffer> {
  const p = person.printed;
  const label = (text: string) => textLayer(text, 'Noto Sans 15', sansFont, '#4a4f66');
  const value = (text: string) => textLayer(text, 'Noto Sans 24', sansFont, '#14161f');
  const layers: Array<{ layer: Promise<{ input: Buffer; width: number; height: number }>; left: number; top: number }> = [
    { layer: textLayer('PASSPORT / PASSEPORT', 'Noto Sans 30', sansFont, '#22305f'), left: 48, top: 40 },
    { layer: textLayer(p.state, 'Noto Sans 22', sansFont, '#22305f'), left: 48, top: 92 },
  ];
  const rows: Array<Array<[string, string]>> = [
    [
      ['Type / Type', 'P'],
      ['Code / Code', p.code],
      ['Passport No. / No. du passeport', p.number],
    ],
    [['Surname / Nom', p.surname]],
    [['Given names / Prénoms', p.givenNames]],
    [['Nationality / Nationalité', p.nationality]],
    [
      ['Date of birth / Date de naissance', p.dateOfBirth],
      ['Sex / Sexe', p.sex],
    ],
    [
      ['Date of issue / Date de délivrance', p.issued],
      ['Date of expiry / Date d’expiration', p.expiry],
    ],
  ];
  rows.forEach((row, r) => {
    row.forEach(([l, v], c) => {
      const left = 400 + c * (row.length === 3 ? 190 : 330);
      const top = 150 + r * 72;
      layers.push({ layer: label(l), left, top }, { layer: value(v), left, top: top + 24 });
    });
  });
  // The zone: 44 characters over ~1 120 px (10 characters to the inch at 10 px/mm is 25.4 px each).
  const zoneLeft = 60 + random.int(12);
  const zoneTop = pageHeight - 116 + random.int(8);
  layers.push(
    { layer: textLayer(person.mrz[0], 'Noto Sans Mono 42', monoFont, '#101010'), left: zoneLeft, top: zoneTop },
    { layer: textLayer(person.mrz[1], 'Noto Sans Mono 42', monoFont, '#101010'), left: zoneLeft, top: zoneTop + 46 },
  );
  const rendered = await Promise.all(layers.map(async (l) => ({ ...(await l.layer), left: l.left, top: l.top })));
  return sharp(Buffer.from(backgroundSvg(random)))
    .composite(rendered.map((l) => ({ input: l.input, left: l.left, top: l.top })))
    .removeAlpha()
    .raw()
    .toBuffer();
}

const raw = { width: pageWidth, height: pageHeight, channels: 3 as const };
const jpeg = async (image: Sharp, quality: number): Promise<PassportImage> => ({ contentType: 'image/jpeg', bytes: await image.jpeg({ quality }).toBuffer() });

/** Gaussian noise of `sigma` grey levels on every channel (Box–Muller, from the seed). */
function addNoise(random: Random, pixels: Buffer, sigma: number): Buffer {
  const out = Buffer.alloc(pixels.length);
  for (let i = 0; i < pixels.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random.next()));
    const theta = 2 * Math.PI * random.next();
    out[i] = Math.max(0, Math.min(255, Math.round(pixels[i]! + sigma * r * Math.cos(theta))));
    if (i + 1 < pixels.length) out[i + 1] = Math.max(0, Math.min(255, Math.round(pixels[i + 1]! + sigma * r * Math.sin(theta))));
  }
  return out;
}

/** A table under the page, for what a turned or sheared photo shows around it. */
const tableColour = (random: Random) => ({ r: 70 + random.int(60), g: 60 + random.int(50), b: 50 + random.int(40) });

async function photograph(random: Random, variant: PassportVariant, page: Buffer): Promise<{ image: PassportImage; transform: string }> {
  const clean = () => sharp(page, { raw });
  switch (variant) {
    case 'clean':
    case 'wrongCheckDigit':
      return { image: await jpeg(clean(), 90), transform: 'none' };
    case 'rotated': {
      const degrees = random.sign() * random.between(3, 8);
      return { image: await jpeg(clean().rotate(degrees, { background: tableColour(random) }), 88), transform: `rotated ${degrees.toFixed(1)}°` };
    }
    case 'blurred': {
      const sigma = random.between(1, 2);
      return { image: await jpeg(clean().blur(sigma), 90), transform: `blurred σ ${sigma.toFixed(2)}` };
    }
    case 'skewed': {
      const shearX = random.sign() * random.between(0.02, 0.06);
      const shearY = random.sign() * random.between(0.01, 0.04);
      const matrix: [number, number, number, number] = [1, shearX, shearY, 1 - random.between(0, 0.05)];
      return {
        image: await jpeg(clean().affine(matrix, { background: tableColour(random), interpolator: 'bicubic' }), 88),
        transform: `affine [${matrix.map((n) => n.toFixed(3)).join(', ')}]`,
      };
    }
    case 'lowContrast': {
      // Washed out, and lit from one side.
      const gain = random.between(0.3, 0.45);
      const washed = await clean()
        .linear(gain, 255 * (1 - gain) - random.int(40))
        .raw()
        .toBuffer();
      const shade = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${pageWidth}" height="${pageHeight}"><defs><linearGradient id="l" x1="${random.int(2)}" y1="0" x2="${random.chance(0.5) ? 1 : 0}" y2="1"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#bbb"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#l)"/></svg>`,
      );
      return { image: await jpeg(sharp(washed, { raw }).composite([{ input: shade, blend: 'multiply' }]), 88), transform: `contrast × ${gain.toFixed(2)}, shaded` };
    }
    case 'noisy': {
      const sigma = random.between(18, 30);
      return { image: await jpeg(sharp(addNoise(random, page, sigma), { raw }), 90), transform: `noise σ ${sigma.toFixed(1)}` };
    }
    case 'jpegLowQuality': {
      const quality = 8 + random.int(12);
      return { image: await jpeg(clean(), quality), transform: `JPEG quality ${quality}` };
    }
    case 'smallPhone': {
      const width = 780 + random.int(40);
      return { image: await jpeg(clean().resize({ width }), 75), transform: `${width} px wide` };
    }
  }
}

/** One synthetic passport page, the same for the same seed and variant. */
export async function generatePassport(seed: number, variant: PassportVariant): Promise<PassportCase> {
  const random = createRandom(seed);
  const person = drawPerson(random);
  let invalidCheckDigits: Td3Field[] = [];
  if (variant === 'wrongCheckDigit') {
    const spoilt = spoilCheckDigit(random, person.mrz[1]);
    person.mrz = [person.mrz[0], spoilt.line2];
    invalidCheckDigits = [spoilt.field];
  }
  const page = await drawPage(random, person);
  const { image, transform } = await photograph(createRandom(seed ^ 0x5eed), variant, page);
  return { seed, variant, image, mrz: person.mrz, typed: person.typed, invalidCheckDigits, transform };
}

/** A photo that is no passport: soft coloured blobs, no text. */
export async function generateOtherPhoto(seed: number, size: { width: number; height: number }): Promise<PassportImage> {
  const random = createRandom(seed);
  const blobs = Array.from(
    { length: 12 },
    () =>
      `<circle cx="${random.int(size.width)}" cy="${random.int(size.height)}" r="${Math.max(4, random.int(Math.min(size.width, size.height) / 2))}" fill="hsl(${random.int(360)}, 50%, ${30 + random.int(50)}%)" opacity="0.7"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="hsl(${random.int(360)}, 30%, 60%)"/>${blobs.join('')}</svg>`;
  return jpeg(sharp(Buffer.from(svg)).blur(3), 85);
}
