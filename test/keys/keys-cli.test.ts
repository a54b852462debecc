// `pvs keys rotate` and `pvs keys status` as an operator of a sandbox would use them: a server runs under
// the generated key; the key is rotated; after a restart everything sealed is sealed again under the new
// key by the re-seal job, the old key holds nothing and may leave. With SECRET_KEY in the environment the
// command refuses and says what to do.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { me, newSite, onlyJsonObject, run, serve, sleep, assertCredentials } from '../helpers/cli.ts';

interface Status {
  current: string;
  previous: string[];
  keys: Array<{ keyId: string; role: string; sealed: number; liveDigests: number; removable: boolean }>;
  reseal: { status: string } | null;
}

async function status(site: Awaited<ReturnType<typeof newSite>>): Promise<Status> {
  const result = await run(site, ['keys', 'status', '--json']);
  assert.equal(result.code, 0, result.describe());
  return onlyJsonObject(result.stdout) as unknown as Status;
}

describe('pvs keys', () => {
  it('rotate: a new sandbox key, the old kept as previous; after a restart the re-seal leaves nothing under the old', async () => {
    const site = await newSite();
    let server = await serve(site);
    const demo = assertCredentials(JSON.parse(readFileSync(path.join(site.dataDir, 'demo-partner.json'), 'utf8')) as Record<string, unknown>);
    const before = await status(site);
    assert.match(before.current, /^k[0-9a-f]{12}$/);
    assert.ok(before.keys.find((k) => k.keyId === before.current)!.sealed >= 1, 'the signing key is sealed under it');
    const human = await run(site, ['keys', 'status']);
    assert.match(human.stdout, new RegExp(`^ {2}${before.current} +current +\\d+ +\\d+$`, 'm'));
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());

    const rotated = await run(site, ['keys', 'rotate', '--json']);
    assert.equal(rotated.code, 0, rotated.describe());
    const { current, previous } = onlyJsonObject(rotated.stdout) as { current: string; previous: string[] };
    assert.notEqual(current, before.current);
    assert.deepEqual(previous, [before.current]);

    server = await serve(site);
    // The demo partner's secret, its signing key and the rest were sealed under the old key: all still work.
    assert.equal((await me(site.port, demo)).id, demo.partnerId);
    let after = await status(site);
    for (let i = 0; i < 100 && after.reseal?.status !== 'SUCCEEDED'; i++) {
      await sleep(200);
      after = await status(site);
    }
    assert.equal(after.reseal?.status, 'SUCCEEDED', JSON.stringify(after));
    const old = after.keys.find((k) => k.keyId === before.current)!;
    assert.equal(old.role, 'previous');
    assert.equal(old.sealed, 0);
    assert.equal(old.removable, true);
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
  });

  it('rotate refuses a key set in the environment, saying what to do', async () => {
    const site = await newSite({ SECRET_KEY: 'an operator-chosen key of more than thirty-two characters' });
    const refused = await run(site, ['keys', 'rotate']);
    assert.equal(refused.code, 78, refused.describe());
    assert.match(refused.stderr, /SECRET_KEY: it is set in the environment, so it is yours to rotate: set a new SECRET_KEY, move the old one to PREVIOUS_SECRET_KEYS/);
    assert.ok(!refused.stderr.includes('operator-chosen'));
  });
});
