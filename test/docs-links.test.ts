// The repository's documentation stands on its own: every file a README or a guide links to is in the
// repository, and none of them sends the reader to a file beside it (the interface specification that
// governs PVS is restated in docs/, which docs/README.md explains).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
  return ['README.md', ...under('docs'), ...under('examples'), ...under('src'), ...under('bench'), ...under('sdk')];
}

test('every link in the documentation leads to a file in the repository', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const resolved = path.resolve(root, path.dirname(file), decodeURIComponent(target!.split('#')[0]!));
      if (!resolved.startsWith(root) || !existsSync(resolved)) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('no page names a file outside the repository', () => {
  const outside = markdownFiles().filter((file) => /\.\.\/shared\/|shared\/(SPEC|CONTRACT|STYLE)\.md/.test(readFileSync(path.join(root, file), 'utf8')));
  assert.deepEqual(outside, []);
});
