import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deedCorpus, renderDeed } from './index.ts';
import { pdfText } from '../pdf-text.ts';
import { createRulesExtractor } from '../../../src/providers/extractor/rules-extractor.ts';
import { scoreDeedPages, summariseScores } from '../../../bench/lib/deed-score.ts';
const only = process.argv[2];
const fresh = process.argv.includes('--fresh');
const seedArg = process.argv.find((a) => a.startsWith('--seed='));
const seed = seedArg ? Number(seedArg.slice(7)) : undefined;
const dir = seed ? `/tmp/deedexp/pages-${seed}` : '/tmp/deedexp/pages';
mkdirSync(dir, { recursive: true });
const ex = createRulesExtractor();
const scores = [];
let ms = 0;
for (const c of deedCorpus({ seed })) {
  if (only && only !== 'all' && !c.id.startsWith(only)) continue;
  const file = `${dir}/${c.id}.json`;
  let texts: string[];
  if (!fresh && existsSync(file)) texts = JSON.parse(readFileSync(file, 'utf8'));
  else { texts = await pdfText(await renderDeed(c)); writeFileSync(file, JSON.stringify(texts)); }
  const pages = texts.map((text, i) => ({ number: i + 1, text, source: 'TEXT_LAYER' as const }));
  const t = performance.now();
  const s = await scoreDeedPages(c, pages, ex);
  ms += performance.now() - t;
  scores.push(s);
  const bad = s.fields.filter((f) => !f.right);
  if (s.missed.length || s.extra.length || bad.length || s.problems.length || !s.classesRight || s.namesSplitRight < s.individualsMatched) {
    console.log(`## ${c.id}`);
    for (const m of s.missed) console.log('  missed', m);
    for (const m of s.extra) console.log('  extra ', m);
    for (const f of bad) console.log('  field ', f.field, JSON.stringify(f.expected), '≠', JSON.stringify(f.actual));
    for (const p of s.problems) console.log('  problem', p);
    if (!s.classesRight) console.log('  classes', JSON.stringify(c.truth.beneficiaryClasses));
    if (s.namesSplitRight < s.individualsMatched) console.log('  split', s.namesSplitRight, '/', s.individualsMatched);
  }
}
console.log(JSON.stringify(summariseScores(scores)), Math.round(ms), 'ms extract');
