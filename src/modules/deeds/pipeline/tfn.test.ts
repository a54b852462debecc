// The TFN scan's rule (tfn.ts) on generated numbers: every valid TFN in the ways one is printed is found;
// no ACN or ABN printed the ways deeds print them is taken for one. Seeded, so a failure repeats.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containsTfn, isValidTfn } from './tfn.ts';

function createRandom(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const digitsOf = (random: (n: number) => number, count: number) => Array.from({ length: count }, () => String(random(10))).join('');

/** A valid TFN of 9 (or 8) digits: random leading digits, the last chosen to make the weighted sum a multiple of 11. */
function makeTfn(random: (n: number) => number, length: 8 | 9): string {
  for (;;) {
    const head = digitsOf(random, length - 1);
    for (let last = 0; last <= 9; last++) if (isValidTfn(head + last)) return head + last;
  }
}

function makeAcn(random: (n: number) => number): string {
  const head = digitsOf(random, 8);
  const sum = [...head].reduce((s, d, i) => s + Number(d) * (8 - i), 0);
  return head + String((10 - (sum % 10)) % 10);
}

function isValidAbn(abn: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...abn].reduce((s, d, i) => s + (Number(d) - (i === 0 ? 1 : 0)) * weights[i]!, 0);
  return sum % 89 === 0;
}

function makeAbn(random: (n: number) => number): string {
  for (;;) {
    const abn = String(1 + random(9)) + digitsOf(random, 10);
    if (isValidAbn(abn)) return abn;
  }
}

const spaced = (digits: string, sizes: number[], sep = ' ') => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) parts.push(digits.slice(at, (at += size)));
  return parts.join(sep);
};

const tfnFormats9: ((d: string) => string)[] = [
  (d) => spaced(d, [3, 3, 3]),
  (d) => d,
  (d) => spaced(d, [3, 3, 3], '-'),
  (d) => spaced(d, [3, 3, 3], ' - '),
  (d) => spaced(d, [3, 3, 3], '  '),
  (d) => spaced(d, [3, 3, 3], '\u00a0'),
  // Wrapped at the end of a line.
  (d) => `${spaced(d, [3, 3])}\n${d.slice(6)}`,
  (d) => `${spaced(d, [3])} \n ${spaced(d.slice(3), [3, 3])}`,
];
const tfnFormats8: ((d: string) => string)[] = [(d) => spaced(d, [2, 3, 3]), (d) => d, (d) => spaced(d, [2, 3, 3], '-'), (d) => spaced(d, [4, 4])];
const tfnContexts: ((n: string) => string)[] = [
  (n) => n,
  (n) => `The Trustee's TFN is ${n}.`,
  (n) => `Tax File Number: ${n}`,
  (n) => `TFN ${n} (Trustee)`,
  (n) => `T.F.N. ${n}`,
  (n) => `Tax File Number (TFN):\n${n}\nDate of birth`,
  (n) => `Details of the trust\nnumber ${n} registered with the ATO`,
  (n) => `(${n})`,
  (n) => `Trustee, ACN 004 085 616, and its number ${n}.`,
];

describe('isValidTfn', () => {
  it('checks the weighted sum of 9 and of 8 digits', () => {
    assert.equal(isValidTfn('123456782'), true);
    assert.equal(isValidTfn('123456789'), false);
    assert.equal(isValidTfn('12345678'), false);
    assert.equal(isValidTfn('12345677'), true);
    assert.equal(isValidTfn('1234567'), false);
    assert.equal(isValidTfn('1234567890'), false);
    assert.equal(isValidTfn('12345678a'), false);
    assert.equal(isValidTfn('000000000'), false, 'all zeros is a placeholder, not a TFN');
  });
});

describe('containsTfn', () => {
  it('finds every valid TFN, 9 and 8 digits, in every format and context (3 000 of them)', () => {
    const random = createRandom(20260101);
    const missed: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const length = i % 3 === 0 ? 8 : 9;
      const tfn = makeTfn(random, length);
      const formats = length === 9 ? tfnFormats9 : tfnFormats8;
      const text = tfnContexts[i % tfnContexts.length]!(formats[random(formats.length)]!(tfn));
      if (!containsTfn(text)) missed.push(text);
    }
    assert.deepEqual(missed, []);
  });

  it('finds a TFN OCR read with O for 0 and l for 1, or run into a word or its label', () => {
    assert.equal(containsTfn('TFN: 876 543 21O'), true);
    assert.equal(containsTfn('123 456 782'.replace('1', 'l')), true);
    assert.equal(containsTfn('TFN123456782'), true);
    assert.equal(containsTfn('ref:123456782;'), true);
  });

  it('takes a labelled TFN as one even when a misread digit breaks its check, or a digit runs on', () => {
    assert.equal(isValidTfn('123456789'), false);
    assert.equal(containsTfn('Tax File Number: 123 456 789'), true);
    assert.equal(containsTfn('TFN 12 345 679'), true);
    assert.equal(containsTfn('TFN: 123 456 782 1'), true);
    assert.equal(containsTfn('TFN: 1234567821'), true);
    // A label over a number that cannot be one (too short) finds nothing.
    assert.equal(containsTfn('TFN: 123 456'), false);
  });

  it('does not take a valid ACN or ABN printed as deeds print them for a TFN (3 000 of them)', () => {
    const random = createRandom(20260202);
    const acnFormats: ((d: string) => string)[] = [
      (d) => `ACN ${spaced(d, [3, 3, 3])}`,
      (d) => `A.C.N. ${d}`,
      (d) => `(ACN ${spaced(d, [3, 3, 3])})`,
      (d) => `ACN: ${spaced(d, [3, 3, 3])}`,
      (d) => `A.C.N ${spaced(d, [3, 3, 3], '-')}`,
      (d) => `Australian Company Number ${spaced(d, [3, 3, 3])}`,
      (d) => `ARBN ${spaced(d, [3, 3, 3])}`,
      (d) => `ARSN ${d}`,
      (d) => `Whitfield Nominees Pty Ltd\nACN\n${spaced(d, [3, 3, 3])}`,
      (d) => `Whitfield Nominees Pty Ltd ACN ${spaced(d, [3, 3])}\n${d.slice(6)}`,
    ];
    const abnFormats: ((d: string) => string)[] = [
      (d) => `ABN ${spaced(d, [2, 3, 3, 3])}`,
      (d) => `A.B.N. ${d}`,
      (d) => `ABN: ${spaced(d, [2, 3, 3, 3])}`,
      (d) => spaced(d, [2, 3, 3, 3]),
      (d) => d,
      (d) => `Australian Business Number ${spaced(d, [2, 3, 3, 3], '-')}`,
      (d) => `ABN ${spaced(d, [2, 3])}\n${spaced(d.slice(5), [3, 3])}`,
    ];
    const flagged: string[] = [];
    let acnsAlsoTfns = 0;
    for (let i = 0; i < 3000; i++) {
      const acn = makeAcn(random);
      if (isValidTfn(acn)) acnsAlsoTfns++;
      const abn = makeAbn(random);
      const text = `${acnFormats[i % acnFormats.length]!(acn)} and ${abnFormats[i % abnFormats.length]!(abn)}`;
      if (containsTfn(text)) flagged.push(text);
    }
    assert.deepEqual(flagged, []);
    // The labels matter: about one valid ACN in eleven also passes the TFN check.
    assert.ok(acnsAlsoTfns > 150, `${acnsAlsoTfns} of 3 000 ACNs are valid TFNs`);
  });

  it('flags an unlabelled valid ACN only when it passes the TFN check by chance (the documented trade-off)', () => {
    const random = createRandom(20260303);
    let flagged = 0;
    for (let i = 0; i < 2000; i++) {
      const acn = makeAcn(random);
      const found = containsTfn(`Whitfield Nominees Pty Ltd ${spaced(acn, [3, 3, 3])} as trustee`);
      assert.equal(found, isValidTfn(acn));
      if (found) flagged++;
    }
    assert.ok(flagged > 100 && flagged < 300, `${flagged} of 2 000`);
  });

  it('passes over dates, labelled phone numbers, amounts, clause numbers and longer numbers', () => {
    const random = createRandom(20260404);
    for (let i = 0; i < 500; i++) {
      const day = 1 + random(28);
      const month = 1 + random(12);
      const year = 1900 + random(200);
      const pad = (n: number) => String(n).padStart(2, '0');
      const local = `${pad(random(10) + 1)}${digitsOf(random, 2)} ${digitsOf(random, 4)}`;
      const texts = [
        `on ${pad(day)} ${pad(month)} ${year}`,
        `dated ${day}-${month}-${year}`,
        `${year}-${pad(month)}-${pad(day)}`,
        `Tel: ${local}`,
        `Phone (02) ${local}`,
        `(0${2 + random(7)}) ${local}`,
        `+61 2 ${local}`,
        `Mobile 04${digitsOf(random, 2)} ${digitsOf(random, 3)} ${digitsOf(random, 3)}`,
        `$${1 + random(9)},${digitsOf(random, 3)},${digitsOf(random, 3)}.00`,
        `clause ${1 + random(20)}.${1 + random(9)}(${'abc'[random(3)]})`,
        `BSB 062-000 account ${digitsOf(random, 10)}`,
      ];
      for (const text of texts) assert.equal(containsTfn(text), false, text);
    }
  });

  it('finds nothing in a deed page without numbers, and answers only true or false', () => {
    const page = 'THIS DEED OF SETTLEMENT is made on 14 March 2019 BETWEEN Margaret Whitfield of 27 Banksia Crescent, Toowong QLD 4066.';
    assert.equal(containsTfn(page), false);
    assert.equal(typeof containsTfn(`${page} TFN 123 456 782`), 'boolean');
  });
});
