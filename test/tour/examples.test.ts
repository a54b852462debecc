// The files the README's tour uses are what scripts/generate-examples.ts writes, byte for byte.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { examplesDir, exampleFiles } from '../../scripts/generate-examples.ts';

test('examples/ is what its generator writes (node --import tsx scripts/generate-examples.ts)', async () => {
  for (const [name, bytes] of Object.entries(await exampleFiles())) {
    assert.ok(readFileSync(path.join(examplesDir, name)).equals(bytes), `examples/${name} is out of date`);
  }
});
