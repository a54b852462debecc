// `npm install` on the Node.js the README names warns about nothing: every package in the lockfile,
// development ones included, supports it (a package that needs a newer Node is pinned or overridden to
// a line that does not, as light-my-request's cookie is in package.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import semver from 'semver';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

test('every locked package supports the oldest Node.js PVS supports', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;
  assert.equal(oldest, '20.19.0');
  const refused = Object.entries(lock.packages)
    .filter(([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
    .map(([name, entry]) => `${name} needs ${(entry.engines as { node: string }).node}`);
  assert.deepEqual(refused, []);
});
