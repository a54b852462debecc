// Renders the report fixtures (test/helpers/report-models.ts) to test-output/<name>.pdf and, when poppler's
// `pdftoppm` is installed, each page to test-output/<name>-<page>.png at 80 dpi: to look at the layout.
//   node --import tsx scripts/render-report-samples.ts [name …]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderEntityReport } from '../src/modules/verifications/reports/entity-report.ts';
import { renderIndividualReport } from '../src/modules/verifications/reports/individual-report.ts';
import { reportSamples } from '../test/helpers/report-models.ts';

const outDir = fileURLToPath(new URL('../test-output/', import.meta.url));
const hasPdftoppm = spawnSync('pdftoppm', ['-v']).error === undefined;

const only = process.argv.slice(2);
const samples = Object.entries(reportSamples).filter(([name]) => only.length === 0 || only.includes(name));
if (samples.length === 0) {
  console.error(`No sample named ${only.join(', ')}; known: ${Object.keys(reportSamples).join(', ')}`);
  process.exit(1);
}

mkdirSync(outDir, { recursive: true });
for (const [name, sample] of samples) {
  const pdf = sample.kind === 'entity' ? await renderEntityReport(sample.model()) : await renderIndividualReport(sample.model());
  const file = path.join(outDir, `${name}.pdf`);
  writeFileSync(file, pdf);
  // Earlier renderings may have had more pages.
  for (const old of readdirSync(outDir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))) rmSync(path.join(outDir, old));
  let pages = '';
  if (hasPdftoppm) {
    const run = spawnSync('pdftoppm', ['-png', '-r', '80', file, path.join(outDir, name)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pdftoppm ${file}: ${run.stderr}`);
    pages = `, ${readdirSync(outDir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).length} PNG page(s)`;
  }
  console.log(`test-output/${name}.pdf: ${pdf.length} bytes${pages}`);
}
if (!hasPdftoppm) console.log('pdftoppm not found (apt-get install poppler-utils): PDFs only.');
