// The embedded database's own settings (decision 120): 16 MB of shared buffers, given as a start
// parameter so that the data directory's postgresql.conf (its time zone, its date style) stays as initdb
// wrote it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openPglite } from './pglite.ts';

describe('the embedded database', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-pglite-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs with 16 MB of shared buffers and keeps its own postgresql.conf, opened again too', async () => {
    for (let opening = 0; opening < 2; opening++) {
      const db = await openPglite({ dataDir: dir });
      try {
        const [settings] = await db.query<{ buffers: string; zone: string; style: string }>(
          "SELECT current_setting('shared_buffers') AS buffers, current_setting('TimeZone') AS zone, current_setting('DateStyle') AS style",
        );
        assert.deepEqual(settings, { buffers: '16MB', zone: 'UTC', style: 'ISO, MDY' });
      } finally {
        await db.close();
      }
      const conf = readFileSync(path.join(dir, 'postgresql.conf'), 'utf8');
      assert.match(conf, /^timezone = UTC/m, 'initdb’s postgresql.conf is still there');
      assert.doesNotMatch(conf, /^shared_buffers ?= ?16MB/m, 'the setting is not written into it');
    }
  });
});
