// The rules extractor over the whole generated corpus (test/helpers/deed-corpus/): every deed rendered to
// a PDF, its text layer read page by page with pdfjs, extracted, and scored against the deed's truth
// (bench/lib/deed-score.ts). The goal: party F1 and trust-field accuracy of at least 0.95, every answer
// valid and every quote on its page. The same pages with OCR's line breaks and hyphens must do as well.
// bench/scenarios/deed-extraction.ts prints the same figures with what failed.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DeedPage } from './deed-payload.ts';
import { scoreDeedPages, summariseScores, type DeedScore } from '../../../bench/lib/deed-score.ts';
import { deedCorpus, isValidTfn, renderDeed, type DeedCase } from '../../../test/helpers/deed-corpus/index.ts';
import { pdfText } from '../../../test/helpers/pdf-text.ts';
import { createRulesExtractor } from './rules-extractor.ts';

const corpus = deedCorpus();
const rendered = new Map<string, { pdf: Buffer; pages: DeedPage[] }>();

// Rendering and reading PDFs, with no database: the same on either back-end, so in one CI pass.
const skip = process.env.TEST_DATABASE === 'postgres' ? 'needs no database: it runs in the PGlite pass only' : false;

before(async () => {
  if (skip) return;
  for (const deed of corpus) {
    const pdf = await renderDeed(deed);
    const pages = (await pdfText(pdf)).map((text, i) => ({ number: i + 1, text, source: 'TEXT_LAYER' as const }));
    rendered.set(deed.id, { pdf, pages });
  }
});

/** Each page as OCR would hand it over: lines of 60 to 90 characters, some words broken with a hyphen. */
function asOcr(text: string, seed: number): string {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % 1000) / 1000;
  let line = 0;
  return text
    .split(' ')
    .map((word) => {
      if (line > 60 + next() * 30) {
        line = word.length;
        if (word.length > 6 && /^\p{Ll}+$/u.test(word) && next() < 0.3) return `${word.slice(0, 3)}-\n${word.slice(3)}`;
        return `\n${word}`;
      }
      line += word.length + 1;
      return ` ${word}`;
    })
    .join('')
    .trim();
}

function report(scores: DeedScore[]): string {
  return scores
    .filter((s) => s.missed.length || s.extra.length || s.problems.length || s.fields.some((f) => !f.right))
    .map((s) => `${s.id}: missed ${JSON.stringify(s.missed)} extra ${JSON.stringify(s.extra)} fields ${JSON.stringify(s.fields.filter((f) => !f.right))} ${s.problems.join('; ')}`)
    .join('\n');
}

async function scoreAll(pagesOf: (deed: DeedCase) => DeedPage[]): Promise<DeedScore[]> {
  const extractor = createRulesExtractor();
  const scores: DeedScore[] = [];
  for (const deed of corpus) scores.push(await scoreDeedPages(deed, pagesOf(deed), extractor));
  return scores;
}

describe('the deed corpus', { skip }, () => {
  it('has 30+ varied deeds, long ones within the page limit, and TFNs only where it says', () => {
    assert.ok(corpus.length >= 30);
    for (const kind of ['DISCRETIONARY', 'UNIT', 'HYBRID', 'FIXED', 'BARE', 'SMSF'] as const) assert.ok(corpus.some((d) => d.kind === kind), kind);
    for (const feature of ['schedule-first', 'schedule-last', 'schedule-none', 'variation', 'long', 'invalid-acn', 'successor-appointor-schedule', 'successor-appointor-clause', 'several-appointors', 'corporate-trustee', 'individual-trustees', 'dates-of-birth']) {
      assert.ok(corpus.some((d) => d.features.includes(feature)), feature);
    }
    const pageCounts = corpus.map((d) => rendered.get(d.id)!.pages.length);
    assert.ok(pageCounts.filter((n) => n >= 100).length >= 3, `long deeds: ${pageCounts}`);
    assert.ok(Math.max(...pageCounts) <= 150);
    assert.ok(corpus.some((d) => d.truth.trust === null));
    const withTfn = corpus.filter((d) => d.tfn);
    assert.ok(withTfn.length >= 3 && withTfn.some((d) => d.tfn!.length === 8));
    for (const deed of corpus) {
      const digits = rendered.get(deed.id)!.pages.map((p) => p.text.replace(/\D/g, '')).join('|');
      if (deed.tfn) {
        assert.ok(isValidTfn(deed.tfn), deed.id);
        assert.ok(digits.includes(deed.tfn), `${deed.id} prints its TFN`);
      }
    }
  });

  it('renders the same bytes every time, and prints a TFN it is given', async () => {
    const deed = corpus.find((d) => d.id.startsWith('v01'))!;
    assert.deepEqual(await renderDeed(deed), rendered.get(deed.id)!.pdf);
    const text = (await pdfText(await renderDeed(deed, { tfn: '123456782' }))).join(' ');
    assert.match(text, /123[\s-]?456[\s-]?782/);
  });
});

describe('rules extractor on the corpus', { skip }, () => {
  it('finds the parties and the trust of born-digital deeds: F1 and trust fields ≥ 0.95, every quote on its page', async () => {
    const scores = await scoreAll((deed) => rendered.get(deed.id)!.pages);
    const total = summariseScores(scores);
    assert.equal(total.problems, 0, report(scores));
    assert.ok(total.f1 >= 0.95, `party F1 ${total.f1.toFixed(3)}\n${report(scores)}`);
    assert.ok(total.trustFieldAccuracy >= 0.95, `trust fields ${total.trustFieldAccuracy.toFixed(3)}\n${report(scores)}`);
  });

  it('does as well on the same pages broken into lines as OCR gives them', async () => {
    const scores = await scoreAll((deed) => rendered.get(deed.id)!.pages.map((p) => ({ ...p, text: asOcr(p.text, deed.seed + p.number), source: 'OCR' as const })));
    const total = summariseScores(scores);
    assert.equal(total.problems, 0, report(scores));
    assert.ok(total.f1 >= 0.95, `party F1 ${total.f1.toFixed(3)}\n${report(scores)}`);
    assert.ok(total.trustFieldAccuracy >= 0.95, `trust fields ${total.trustFieldAccuracy.toFixed(3)}\n${report(scores)}`);
  });
});
