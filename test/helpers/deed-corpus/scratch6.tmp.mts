import { readFileSync } from 'node:fs';
import { deedCorpus } from './index.ts';
import { createRulesExtractor } from '../../../src/providers/extractor/rules-extractor.ts';
import { scoreDeedPages, summariseScores } from '../../../bench/lib/deed-score.ts';
import { createRandom } from './random.ts';
// OCR-ish: lines of ~60-90 chars, some words hyphenated across lines, some double spaces, ACN dots.
function ocrish(text: string, seed: number): string {
  const r = createRandom(seed);
  const words = text.split(' ');
  let line = 0; const out: string[] = [];
  for (const w of words) {
    if (line > 60 + r.int(30)) {
      if (w.length > 6 && /^\p{L}+$/u.test(w) && r.chance(0.3)) { const cut = 2 + r.int(w.length - 4); out.push(' ' + w.slice(0, cut) + '-\n' + w.slice(cut)); line = w.length - cut; continue; }
      out.push('\n' + w); line = w.length; continue;
    }
    out.push((r.chance(0.05) ? '  ' : ' ') + w); line += w.length + 1;
  }
  return out.join('').trim();
}
const ex = createRulesExtractor();
const scores = [];
for (const c of deedCorpus()) {
  const texts: string[] = JSON.parse(readFileSync(`/tmp/deedexp/pages/${c.id}.json`, 'utf8'));
  const pages = texts.map((t, i) => ({ number: i + 1, text: ocrish(t, c.seed + i), source: 'OCR' as const }));
  const s = await scoreDeedPages(c, pages, ex);
  scores.push(s);
  const bad = s.fields.filter((f) => !f.right);
  if (s.missed.length || s.extra.length || bad.length || s.problems.length) {
    console.log(`## ${c.id}`);
    for (const m of s.missed) console.log('  missed', m);
    for (const m of s.extra) console.log('  extra ', m);
    for (const f of bad) console.log('  field ', f.field, JSON.stringify(f.expected), '≠', JSON.stringify(f.actual));
    for (const p of s.problems) console.log('  problem', p);
  }
}
console.log(JSON.stringify(summariseScores(scores)));
