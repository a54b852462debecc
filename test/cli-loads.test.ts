// A command loads what it runs (docs/architecture.md, "What a process loads"): the compiled `pvs`, run as an
// operator runs it, with record-loads.mjs noting every module it loaded. None of the admin commands,
// with or without a server, loads a heavy package (PDF, OCR, canvas, images, cloud and payment SDKs);
// `--help` loads no service code at all, and a command the server answers opens no database here.
// test-pass: postgres
import { backend } from './helpers/database.ts';
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newSite, run, serve, type Pvs, type Site } from './helpers/cli.ts';
import { loadedPackages, matchingPackages, readLoads, recordLoadsHook, recordLoadsVariable } from './helpers/module-loads.ts';

// Run once, in the PostgreSQL pass (where it is quicker): what a command loads does not depend on the database back-end.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

let count = 0;

/** Runs `pvs …args` to its end and answers what it loaded. */
async function loadsOf(site: Site, args: string[]): Promise<{ urls: string[]; packages: Set<string>; stdout: string }> {
  const file = path.join(site.dir, `loads-${++count}.txt`);
  const result = await run(site, args, { NODE_OPTIONS: `--import=${recordLoadsHook}`, [recordLoadsVariable]: file });
  assert.equal(result.code, 0, result.describe());
  const urls = readLoads(file);
  return { urls, packages: loadedPackages(urls), stdout: result.stdout };
}

const ownModules = (urls: string[]) => urls.filter((u) => u.includes('/dist/')).map((u) => u.slice(u.indexOf('/dist/') + 1));

describe('what a pvs command loads', { skip: pgliteSkip }, () => {
  let site: Site;
  let partnerId: string;

  before(async () => {
    site = await newSite();
  });

  it('--help loads commander and the command table, nothing else of PVS', async () => {
    const { urls, packages, stdout } = await loadsOf(site, ['--help']);
    assert.match(stdout, /Usage: pvs/);
    assert.deepEqual([...packages], ['commander']);
    assert.deepEqual(ownModules(urls), ['dist/main.js']);
  });

  it('with no server, the admin commands open the database here and load no heavy package', async () => {
    const created = await loadsOf(site, ['partner', 'create', '--name', 'Loads Pty Ltd', '--json']);
    partnerId = (JSON.parse(created.stdout) as { partnerId: string }).partnerId;
    assert.ok(ownModules(created.urls).includes('dist/services.js'), 'the services were opened in the command');
    const commands = [
      ['destination', 'create', '--partner', partnerId, '--url', 'https://hooks.example.com/pvs', '--json'],
      ['operator', 'create', '--email', 'loads@pvs.example', '--json'],
      ['portal-user', 'create', '--partner', partnerId, '--email', 'kim@loads.example', '--json'],
      ['setting', 'list', '--json'],
      ['screening', 'search', '--name', 'Boris Karlov', '--json'],
    ];
    const heavy: Record<string, string[]> = { 'partner create': matchingPackages(created.packages) };
    for (const args of commands) heavy[args.slice(0, 2).join(' ')] = matchingPackages((await loadsOf(site, args)).packages);
    assert.deepEqual(heavy, Object.fromEntries(Object.keys(heavy).map((name) => [name, []])));
  });

  describe('with the server running', () => {
    let server: Pvs;
    before(async () => {
      server = await serve(site);
    });
    after(async () => {
      await server.terminate();
    });

    it('partner create and screening search are answered by the server: no service code, no database, nothing heavy', async () => {
      for (const args of [
        ['partner', 'create', '--name', 'Remote Pty Ltd', '--json'],
        ['screening', 'search', '--name', 'Boris Karlov', '--json'],
      ]) {
        const { urls, packages } = await loadsOf(site, args);
        assert.deepEqual(matchingPackages(packages), [], args.join(' '));
        assert.deepEqual(matchingPackages(packages, ['@electric-sql/pglite', 'pg', 'fastify']), [], args.join(' '));
        assert.ok(!ownModules(urls).includes('dist/services.js'), `${args.join(' ')} opened no services`);
      }
    });
  });
});
