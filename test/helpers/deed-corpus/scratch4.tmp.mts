import { readFileSync } from 'node:fs';
import { buildDeedText } from '../../../src/providers/extractor/deed-text.ts';
import { readSchedules } from '../../../src/providers/extractor/schedule.ts';
import { definedTermMentions, definitionMentions, sentenceMentions } from '../../../src/providers/extractor/mentions.ts';
const id = process.argv[2]!;
const filter = process.argv[3] ?? '';
const dir = process.env.SEED ? `/tmp/deedexp/pages-${process.env.SEED}` : '/tmp/deedexp/pages';
const texts: string[] = JSON.parse(readFileSync(`${dir}/${id}.json`, 'utf8'));
const doc = buildDeedText(texts.map((text, i) => ({ number: i + 1, text, source: 'TEXT_LAYER' as const })));
const r = readSchedules(doc.text);
for (const f of r.fields) console.log('field', f.key, JSON.stringify(f.value.slice(0, 100)));
const all = [...r.mentions, ...definedTermMentions(doc.text), ...definitionMentions(doc.text).mentions, ...sentenceMentions(doc.text)];
for (const m of all) {
  const names = m.parties.map((p) => p.businessName ?? `${p.firstName}|${p.lastName}`);
  if (filter && !names.join(' ').includes(filter)) continue;
  console.log(m.source, m.role, m.qualifier, JSON.stringify(doc.text.slice(m.roleStart, m.roleEnd)), names, m.parties.map((p) => p.address));
}
if (process.argv[4]) { const i = doc.text.indexOf(process.argv[4]); console.log(JSON.stringify(doc.text.slice(i - 300, i + 300))); }
