// The CI drift check: the types committed in sdk/src/generated/openapi.ts are what the app's /openapi.json
// gives today. A route whose schema changed without `node sdk/scripts/generate-types.mjs` fails here.
// test-pass: postgres
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { backend } from '../../test/helpers/database.ts';
import { fetchPartnerDocument, generatedTypesPath, renderTypes } from '../scripts/openapi-types.ts';

// The document is the same on either database: checked once, in the PostgreSQL pass.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

it('sdk/src/generated/openapi.ts is what /openapi.json generates now', { skip: pgliteSkip }, async () => {
  const regenerated = await renderTypes(await fetchPartnerDocument());
  const committed = readFileSync(generatedTypesPath, 'utf8');
  assert.ok(regenerated === committed, 'sdk/src/generated/openapi.ts is out of date: run node sdk/scripts/generate-types.mjs and commit the result');
});
