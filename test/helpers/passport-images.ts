// Synthetic passport photo pages, for the MRZ reader's tests and bench: a page with printed fields and the
// two-line machine-readable zone at its foot, for a random (seeded) person, in the ways a phone photo
// goes wrong: turned, blurred, sheared, dim, noisy, squeezed into a small JPEG. The zone is set in Noto
// Sans Mono: real passports use OCR-B, which no npm package carries.
import { createRequire } from 'node:module';
import sharp, { type OverlayOptions } from 'sharp';
import { checkDigit } from '../../src/modules/verifications/mrz/icao9303.ts';
import { mrzName } from '../../src/modules/verifications/mrz/mrz-compare.ts';

const require = createRequire(import.meta.url);
const monoFont = require.resolve('@expo-google-fonts/noto-sans-mono/500Medium/NotoSansMono_500Medium.ttf');
const sansFont = require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');

export const variants = ['clean', 'wrongCheckDigit', 'rotated', 'blurred', 'sheared', 'lowContrast', 'noisy', 'jpegLowQuality', 'smallPhone'] as const;
export type Variant = (typeof variants)[number];

export interface GeneratedPassport {
  variant: Variant;
  image: { contentType: 'image/jpeg' | 'image/png'; bytes: Buffer };
  /** What the person would type, matching the page. */
  entered: { firstName: string; middleName?: string; lastName: string; dateOfBirth: string; document: { number: string; expiryDate: string; issuingCountry: string } };
  /** The zone as printed. */
  lines: [string, string];
}

const surnames = ['Müller-Lüdenscheidt', 'Nguyễn', 'O’Connor', 'Eriksson', 'Papadopoulos', 'Kowalczyk', 'Tanaka', 'Okafor', 'Smith', 'García Márquez', 'Brennan', 'Ødegaard'];
const givens = ['Zoë', 'Anna', 'Liam', 'José', 'Mei', 'Chidi', 'Søren', 'Harriet', 'Ngaio', 'Ava', 'Oliver', 'Łucja'];
const states = [['AUS', 'AU'], ['GBR', 'GB'], ['NZL', 'NZ'], ['D<<', 'DE'], ['CAN', 'CA'], ['IRL', 'IE']] as const;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (value: string, length: number) => value.slice(0, length).padEnd(length, '<');
const digits = (n: number) => String(n).padStart(2, '0');

/** The two TD3 lines for a person, with correct check digits. */
export function td3Lines(p: { state: string; surname: string; given: string; number: string; nationality: string; dob: string; sex: string; expiry: string }): [string, string] {
  const one = pad(`P<${pad(p.state, 3)}${mrzName(p.surname)}<<${mrzName(p.given)}`, 44);
  const number = pad(p.number, 9);
  const personal = pad('', 14);
  const body = `${number}${checkDigit(number)}${pad(p.nationality, 3)}${p.dob}${checkDigit(p.dob)}${p.sex}${p.expiry}${checkDigit(p.expiry)}${personal}<`;
  const composite = body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43);
  return [one, `${body}${checkDigit(composite)}`];
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function textImage(text: string, font: string, fontfile: string, colour = '#1b1b1b'): Promise<Buffer> {
  return sharp({ text: { text: `<span foreground="${colour}">${escape(text)}</span>`, font, fontfile, rgba: true, dpi: 96 } })
    .png()
    .toBuffer();
}

/** One passport photo page as `variant`, for the person seed `seed` picks. */
export async function generatePassport(seed: number, variant: Variant): Promise<GeneratedPassport> {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const surname = pick(surnames);
  const first = pick(givens);
  const middle = random() < 0.4 ? pick(givens) : undefined;
  const [state, alpha2] = pick(states);
  const number = `${'ABCEFHJKLMNPRTUVWXY'[Math.floor(random() * 19)]}${'ABCEFHJKLMNPRTUVWXY'[Math.floor(random() * 19)]}${String(Math.floor(random() * 1e7)).padStart(7, '0')}`;
  const [year, month, day] = [1950 + Math.floor(random() * 55), 1 + Math.floor(random() * 12), 1 + Math.floor(random() * 28)];
  const [eYear, eMonth, eDay] = [2027 + Math.floor(random() * 9), 1 + Math.floor(random() * 12), 1 + Math.floor(random() * 28)];
  const dob = `${digits(year % 100)}${digits(month)}${digits(day)}`;
  const expiry = `${digits(eYear % 100)}${digits(eMonth)}${digits(eDay)}`;
  const sex = random() < 0.5 ? 'F' : 'M';
  const given = [first, middle].filter(Boolean).join(' ');
  let lines = td3Lines({ state, surname, given, number, nationality: state, dob, sex, expiry });
  if (variant === 'wrongCheckDigit') {
    const at = 19; // the birth date's check digit
    lines = [lines[0], `${lines[1].slice(0, at)}${(Number(lines[1][at]) + 3) % 10}${lines[1].slice(at + 1)}`];
  }

  const width = 1250;
  const height = 880;
  const fields = [
    ['Type / Type', 'P'],
    ['Code of issuing State', state.replace(/</g, '')],
    ['Surname / Nom', surname.toUpperCase()],
    ['Given names / Prénoms', given.toUpperCase()],
    ['Nationality', state.replace(/</g, '')],
    ['Date of birth', `${digits(day)} ${['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][month - 1]} ${year}`],
    ['Sex', sex],
    ['Date of expiry', `${digits(eDay)}/${digits(eMonth)}/${eYear}`],
    ['Passport No.', number],
  ];
  const layers: OverlayOptions[] = [
    { input: { create: { width: 300, height: 380, channels: 3, background: '#b9c3cc' } }, left: 50, top: 120 },
    { input: await textImage('PASSPORT  PASSEPORT', 'Noto Sans Bold 22', sansFont, '#2a3f66'), left: 400, top: 40 },
  ];
  let y = 110;
  for (const [label, value] of fields) {
    layers.push({ input: await textImage(label!, 'Noto Sans 11', sansFont, '#4b5a6b'), left: 400, top: y });
    layers.push({ input: await textImage(value!, 'Noto Sans 17', sansFont), left: 400, top: y + 18 });
    y += 56;
  }
  layers.push({ input: await textImage(`${lines[0]}\n${lines[1]}`, 'Noto Sans Mono Medium 30', monoFont), left: 40, top: height - 150 });

  let page = sharp({ create: { width, height, channels: 3, background: '#eef1e6' } }).composite(layers);
  let bytes = await page.png().toBuffer();
  page = sharp(bytes);
  switch (variant) {
    case 'rotated':
      page = page.rotate((random() < 0.5 ? -1 : 1) * (3 + random() * 4), { background: '#6b6256' });
      break;
    case 'blurred':
      page = page.blur(1.2 + random() * 0.6);
      break;
    case 'sheared':
      page = page.affine([1, 0.06, 0.02, 1], { background: '#6b6256' });
      break;
    case 'lowContrast':
      page = page.linear(0.45, 120);
      break;
    case 'noisy': {
      const noise = Buffer.alloc(width * height);
      for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(random() * 255);
      const grain = await sharp(noise, { raw: { width, height, channels: 1 } }).png().toBuffer();
      page = sharp(await page.composite([{ input: grain, blend: 'soft-light' }]).png().toBuffer());
      break;
    }
    case 'smallPhone':
      page = page.resize(800);
      break;
    default:
      break;
  }
  const jpeg = variant === 'jpegLowQuality' ? 30 : 85;
  bytes = await page.jpeg({ quality: jpeg }).toBuffer();
  return {
    variant,
    image: { contentType: 'image/jpeg', bytes },
    entered: { firstName: first, ...(middle ? { middleName: middle } : {}), lastName: surname, dateOfBirth: `${year}-${digits(month)}-${digits(day)}`, document: { number, expiryDate: `${eYear}-${digits(eMonth)}-${digits(eDay)}`, issuingCountry: alpha2 } },
    lines,
  };
}
