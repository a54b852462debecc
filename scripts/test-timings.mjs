// A second reporter for `npm test`: at the end, the slowest test files, so that a CI log shows where the
// time of a pass went (its 30-minute budget is shared by two passes). A file's time is the sum of its
// top-level tests and suites, hooks included; with several files at once, each also waits on the others.
const shown = 25;

export default async function* timings(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nslowest test files (of ${rows.length}, ${Math.round(total / 1000)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, shown)) {
    yield `  ${String(Math.round(ms / 1000)).padStart(5)} s  ${file.replace(`${process.cwd()}/`, '')}\n`;
  }
}
