// A second reporter for `npm test`: at the end, the slowest test files, so that a CI log shows where the
// time of a pass went (its 30-minute budget is shared by two passes). A file's time is the sum of its
// top-level tests and suites, hooks included; with several files at once, each also waits on the others.
// Every file's time is also written to test-output/durations-<back-end>.json, from which test/durations.json
// (the order scripts/test.mjs starts files in) can be refreshed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const shown = 25;

export default async function* timings(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  // A compiled run's files are in .test-build/ (scripts/compile-tests.mjs): named by their sources.
  const relative = (file) => path.relative(process.cwd(), file).replace(/^\.test-build\/(.*)\.js$/, '$1.ts');
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  mkdirSync('test-output', { recursive: true });
  const durations = Object.fromEntries(rows.map(([file, ms]) => [relative(file), Math.round(ms / 1000)]));
  writeFileSync(path.join('test-output', `durations-${process.env.TEST_DATABASE ?? 'pglite'}.json`), `${JSON.stringify(durations, null, 2)}\n`);
  yield `\nslowest test files (of ${rows.length}, ${Math.round(total / 1000)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, shown)) {
    yield `  ${String(Math.round(ms / 1000)).padStart(5)} s  ${relative(file)}\n`;
  }
}
