// The package a partner installs: its manifest (no runtime dependencies, both module systems, types),
// a build of it loaded by `import` and by `require`, and the root package's `pvs/verify-webhook` export,
// which existing users import, still resolving.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backend } from '../../test/helpers/database.ts';
import { version } from '../src/index.ts';

// Building the package does not touch a database: it runs in the PostgreSQL pass only.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

const sdk = fileURLToPath(new URL('..', import.meta.url));
const repository = path.join(sdk, '..');
const manifest = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8')) as Record<string, unknown> & { exports: Record<string, Record<string, unknown>> };

function node(args: string[], cwd: string): string {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  assert.equal(result.status, 0, `${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

describe('the manifest', () => {
  it('@pvs/client 0.1.0, public, MIT, Node 18 and later, and no runtime dependencies', () => {
    assert.equal(manifest.name, '@pvs/client');
    assert.equal(manifest.version, version, 'src/version.ts (sent in User-Agent) follows package.json');
    assert.equal(manifest.private, false);
    assert.equal(manifest.license, 'MIT');
    assert.deepEqual(manifest.engines, { node: '>=18' });
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) assert.equal(manifest[field], undefined, field);
  });

  it('exports ESM and CommonJS, each with its declarations', () => {
    const main = manifest.exports['.']!;
    assert.deepEqual(Object.keys(main), ['import', 'require']);
    assert.deepEqual(main.import, { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' });
    assert.deepEqual(main.require, { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' });
  });

  it('imports nothing but its own modules and Node\'s', () => {
    const sources = spawnSync('grep', ['-rhoE', "from '[^']+'", path.join(sdk, 'src')], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    const outside = sources.filter((line) => !/from '(\.{1,2}\/|node:)/.test(line));
    assert.deepEqual(outside, []);
  });
});

describe('a build', { skip: pgliteSkip }, () => {
  const temporary = mkdtempSync(path.join(os.tmpdir(), 'pvs-client-'));
  after(() => rmSync(temporary, { recursive: true, force: true }));

  it('builds, and loads by import and by require with the same API', () => {
    copyFileSync(path.join(sdk, 'package.json'), path.join(temporary, 'package.json'));
    node([path.join(sdk, 'scripts', 'build.mjs'), '--out-dir', path.join(temporary, 'dist')], sdk);
    // Self-reference by name: resolved through `exports`, as an installed package is.
    const probe = "Object.keys(m).sort().join(',') + ' ' + typeof new m.Pvs({clientId:'c',clientSecret:'s',partnerId:'p',baseUrl:'http://x'}).businessLookups.list";
    const imported = node(['--input-type=module', '-e', `const m = await import('@pvs/client'); console.log(${probe})`], temporary);
    const required = node(['--input-type=commonjs', '-e', `const m = require('@pvs/client'); console.log(${probe})`], temporary);
    assert.equal(required, imported);
    assert.match(imported, /Pvs,.*RateLimitError.*function$/);
    assert.match(readFileSync(path.join(temporary, 'dist', 'cjs', 'index.d.ts'), 'utf8'), /from '\.\/client\.js'/);
  });
});

it('the root package still exports pvs/verify-webhook to existing users', () => {
  const answer = node(['--input-type=module', '-e', "const m = await import('pvs/verify-webhook'); console.log(typeof m.verifyWebhook, typeof m.signWebhook)"], repository);
  assert.equal(answer, 'function function');
});
