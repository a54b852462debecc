#!/usr/bin/env node
// Writes sdk/src/generated/openapi.ts from the app's /openapi.json. Run from anywhere:
//   node sdk/scripts/generate-types.mjs            writes the file
//   node sdk/scripts/generate-types.mjs --check    exits 1 when the committed file is out of date
// The document is built by the app itself, so this runs the TypeScript sources through tsx.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
process.env.LOG_LEVEL ??= 'silent';
const { fetchPartnerDocument, renderTypes, generatedTypesPath } = await import('./openapi-types.ts');

const text = await renderTypes(await fetchPartnerDocument());
const target = fileURLToPath(generatedTypesPath);
if (process.argv.includes('--check')) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== text) {
    process.stderr.write(`${target} is out of date: run node sdk/scripts/generate-types.mjs\n`);
    process.exit(1);
  }
  process.stdout.write(`${target} is up to date\n`);
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
