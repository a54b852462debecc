// The README's five-minute tour, run as written against a freshly started PVS: every command in order,
// in one shell, each output matched against the sample the README prints under it, the reader's
// browser steps done with the calls the hosted pages make, `pvs listen` receiving every event, and
// nothing left behind in the folder the reader ran it in. A README change that breaks the tour, or a
// change to PVS that makes the README wrong, fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, newSite, onPostgres, pvs, sleep, type Pvs } from '../helpers/cli.ts';
import { pay, remote, saveCard, verifyAsPerson, type Invited } from './person-steps.ts';
import { matchesSample, readTour, samplePattern, substituteCommand, substituteSample, type Command, type Substitutions } from './readme-tour.ts';
import { Shell } from './shell.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** Commands that only read (no method, no body) are run again until their output matches: results arrive in the background. */
const onlyReads = (command: string) => /^(\w+=\$\()?curl -s "?http/.test(command) && !/ -X | -d |--data/.test(command);
// Generous: on a loaded CI machine, with OCR and browsers running beside it, a deed or a re-screen can
// take far longer than on a quiet one. A wrong answer still fails; only a slow one waits.
const retryForMs = 120_000;

/** The lines a process printed that are not JSON log lines. */
const printed = (process: Pvs) => process.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('{'));

async function waitForLines(process: Pvs, count: number, timeoutMs = 90_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  while (printed(process).length < count) {
    if (!process.running) assert.fail(`${process.label} exited\n${process.describe()}`);
    if (Date.now() > deadline) assert.fail(`${process.label} printed fewer than ${count} lines within ${timeoutMs} ms\n${process.describe()}`);
    await sleep(100);
  }
  return printed(process);
}

function assertLinesMatch(actual: string[], expected: string[], where: string): void {
  for (const [i, sample] of expected.entries()) {
    assert.ok(samplePattern(sample).test(actual[i] ?? ''), `${where}, line ${i + 1}:\n  README: ${sample}\n  actual: ${actual[i]}\n--- all\n${actual.join('\n')}`);
  }
}

test('the README tour runs as written and prints what the README shows', { timeout: 600_000 }, async () => {
  const steps = readTour(readme);
  assert.ok(steps.length > 10, 'the tour was found');
  // On PostgreSQL, an empty database: the server migrates it as it would a new one.
  const site = await newSite({}, { empty: true });
  symlinkSync(path.join(root, 'examples'), path.join(site.dir, 'examples'));
  const metricsPort = await freePort();
  const env = { ...site.env, DATA_DIR: './.data', METRICS_ADDRESS: `127.0.0.1:${metricsPort}` };
  const s: Substitutions = { port: site.port, listenPort: await freePort(), metricsPort, pvs: `node ${path.join(root, 'bin/pvs.mjs')}` };
  const shell = new Shell(site.dir, env);
  const t = remote(`http://127.0.0.1:${site.port}`);
  let server: Pvs | undefined;
  let listener: Pvs | undefined;
  let listenerEvents: string[] = [];
  let lastOutput = '';

  const runCommand = async (command: Command) => {
    const text = substituteCommand(command.text, s);
    const expected = command.expected.map((e) => substituteSample(e, s));
    const deadline = Date.now() + retryForMs;
    let first: string | undefined;
    for (;;) {
      const ran = await shell.run(text);
      assert.equal(ran.status, 0, `README line ${command.line} failed (exit ${ran.status}):\n${command.text}\n--- output\n${ran.output}`);
      lastOutput = ran.output;
      first ??= ran.output;
      if (expected.length === 0 || matchesSample(ran.output, expected)) return;
      if (!onlyReads(command.text) || Date.now() > deadline) {
        const earlier = first === ran.output ? '' : `\n--- its first output\n${first}`;
        assert.fail(`README line ${command.line}: the output is not what the README shows\n${command.text}\n--- README\n${expected.join('\n')}\n--- actual\n${ran.output}${earlier}`);
      }
      // Once a second, within a lookup's daily read budget.
      await sleep(1_000);
    }
  };

  const actions: Record<string, () => Promise<void>> = {
    'save-card': () => saveCard(t, JSON.parse(lastOutput).url),
    pay: () => pay(t, JSON.parse(lastOutput).paymentUrl),
    'verify-people': async () => {
      for (const person of await invitedPeople(shell, `http://127.0.0.1:${site.port}`, JSON.parse(lastOutput))) await verifyAsPerson(t, person);
    },
  };

  try {
    for (const step of steps) {
      if (step.kind === 'commands') for (const command of step.commands) await runCommand(command);
      else if (step.kind === 'action') {
        const action = actions[step.name];
        assert.ok(action, `README line ${step.line}: no such tour action ${step.name}`);
        await action();
      } else if (step.command === 'npm start') {
        // What `npm start` runs once the build is fresh (CI has just built it).
        server = pvs({ ...site, env }, ['serve']);
        const expected = step.expected.map((e) => onPostgres ? onPostgresInstead(substituteSample(e, s)) : substituteSample(e, s));
        assertLinesMatch(await waitForLines(server, expected.length), expected, `README line ${step.line}, the start`);
        await server.waitReady(site.port);
      } else if (step.command === 'npx pvs listen') {
        listener = pvs({ ...site, env }, ['listen', '--port', String(s.listenPort)]);
        // A line of `…` alone says that more events arrive than the sample shows.
        const expected = step.expected.filter((e) => e !== '…').map((e) => substituteSample(e, s));
        // The lines it prints at once; the events it prints later are checked at the end.
        const startLines = expected.filter((l) => !/^\d\d:\d\d:\d\d /.test(l));
        listenerEvents = expected.filter((l) => /^\d\d:\d\d:\d\d /.test(l));
        assertLinesMatch(await waitForLines(listener, startLines.length, 30_000), startLines, `README line ${step.line}, pvs listen`);
      } else assert.fail(`README line ${step.line}: the tour does not know how to run \`${step.command}\``);
    }

    assert.ok(server && listener, 'the tour starts the server and the listener');
    // Every event line the README shows arrives, each verified, each on a line of its own. Not in the
    // README's order: deliveries run in parallel, so `verification.request.completed` may come before the
    // last `verification.individual.passed` (docs/webhooks.md says events are not ordered).
    const deadline = Date.now() + retryForMs;
    for (;;) {
      const lines = printed(listener);
      const used = new Set<number>();
      const missing = listenerEvents.find((sample) => {
        const found = lines.findIndex((l, i) => !used.has(i) && samplePattern(sample).test(l));
        if (found < 0) return true;
        used.add(found);
        return false;
      });
      if (!missing) break;
      if (Date.now() > deadline) assert.fail(`pvs listen did not print a line like\n  ${missing}\n--- printed\n${lines.join('\n')}`);
      await sleep(500);
    }
    assert.ok(!printed(listener).some((l) => l.includes('REFUSED')), `every delivery verified:\n${printed(listener).join('\n')}`);

    // Ctrl-C in the listener's terminal removes its destination; the server stops on SIGTERM.
    listener.child.kill('SIGINT');
    assert.equal((await listener.wait(30_000)).code, 0, listener.describe());
    assert.equal((await server.terminate()).code, 0, server.describe());
    // Nothing left behind but the data folder (and the test's own link to the examples).
    assert.deepEqual(readdirSync(site.dir).filter((f) => !['.data', 'data', 'examples'].includes(f)), []);
  } finally {
    shell.close();
    listener?.child.kill('SIGKILL');
    server?.child.kill('SIGKILL');
  }
});

/** The start's lines as they read on PostgreSQL, where the README shows the embedded database. */
function onPostgresInstead(line: string): string {
  return line
    .replace('on embedded PGlite (./.data)', 'on PostgreSQL')
    .replace('opening the embedded database and applying pending migrations (the first start creates it)', 'connecting to PostgreSQL and applying pending migrations');
}

/**
 * The people the links were sent to, with the details each would type: their names and dates of birth as
 * the register holds them (read from the lookup's ownership, which the partner can see), so each passes.
 */
async function invitedPeople(shell: Shell, baseUrl: string, links: { individuals: Array<{ id: string; verificationUrl: string }> }): Promise<Invited[]> {
  const [token, partnerId, lookupId, verificationId] = [await shell.variable('TOKEN'), await shell.variable('PARTNER_ID'), await shell.variable('LOOKUP_ID'), await shell.variable('VER_ID')];
  const get = async <T>(url: string) => {
    const response = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}`, 'x-partner-id': partnerId! } });
    assert.equal(response.status, 200, url);
    return (await response.json()) as T;
  };
  const request = await get<{ individuals: Array<{ id: string; idvEntityId: string | null }> }>(`/v1/verifications/${verificationId}`);
  const ownership = await get<{ beneficialOwners: Array<{ idvEntityId: string; name: { givenNames: string; familyName: string }; dateOfBirth: string | null }> }>(
    `/v1/business-lookups/${lookupId}/ownership`,
  );
  return links.individuals.map((link) => {
    const individual = request.individuals.find((i) => i.id === link.id);
    const owner = ownership.beneficialOwners.find((o) => o.idvEntityId === individual?.idvEntityId);
    assert.ok(owner, `the tour's people are all owners with details on the register: ${JSON.stringify(individual)}`);
    return { verificationUrl: link.verificationUrl, givenNames: owner.name.givenNames, familyName: owner.name.familyName, dateOfBirth: owner.dateOfBirth };
  });
}
