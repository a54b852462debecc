// Whether dist/ holds a build of the sources beside it. An installed package has no src/ and its dist/
// is what it ships; a checkout has both, and a source changed after the last build (an edit, a pull,
// a branch switch) makes the build stale. The stamp records when the build started, so a file saved
// while tsc was running counts as newer.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const stampFile = path.join(root, 'dist', 'build.json');
/** What the build reads besides src/: a change to either changes what tsc emits. */
const buildInputs = ['tsconfig.json', 'tsconfig.build.json'];

/** @returns {{ state: 'fresh' } | { state: 'missing' } | { state: 'stale', file: string }} */
export function buildState() {
  if (!existsSync(stampFile)) return { state: 'missing' };
  const source = path.join(root, 'src');
  if (!existsSync(source)) return { state: 'fresh' };
  const { startedAt } = JSON.parse(readFileSync(stampFile, 'utf8'));
  const files = [
    // A README or a test beside the code is not built: editing one leaves the build as it was.
    ...readdirSync(source, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.md') && !e.name.endsWith('.test.ts'))
      .map((e) => path.join(e.parentPath ?? e.path, e.name)),
    ...buildInputs.map((name) => path.join(root, name)),
  ];
  for (const file of files) {
    if (statSync(file, { throwIfNoEntry: false })?.mtimeMs > startedAt) return { state: 'stale', file: path.relative(root, file) };
  }
  return { state: 'fresh' };
}
