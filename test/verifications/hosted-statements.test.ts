// The statements a person's hosted verification costs (bench/README.md, hosted-verification): every call
// checks the session, a step is saved atomically, submit takes the lock it needs; and no more than that.
// A change that adds a statement to these calls fails here, so that it is a decision, not an accident.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { countStatements, describeCount, totalStatements } from '../helpers/statement-count.ts';
import { createVerification, mintLinks, openLink, personDetails, type Person } from '../helpers/verifications.ts';

let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext();
  // The checks screen the person: a list must be loaded for the second attempt's first to finish.
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner();
});
after(() => t.close());

/**
 * What each call may send, BEGIN and COMMIT aside: the session with its individual and latest attempt (1
 * on every call); details makes the provider's subject and records it (2) and saves the step (1);
 * document and selfie save theirs (1 each: the step answers what is still missing); submit asks the
 * provider what is missing (1), locks the individual with its latest attempt (1) and writes the attempt,
 * its count, the charge and the check job as one statement (1).
 */
const budget = { details: 4, document: 2, selfie: 2, submit: 4 } as const;

async function countedFlow(p: Person, lastName: string) {
  const counts: Record<string, number> = {};
  const described: string[] = [];
  for (const [name, call] of [
    ['details', () => p.details(personDetails(lastName))],
    ['document', () => p.document()],
    ['selfie', () => p.selfie()],
    ['submit', () => p.submit()],
  ] as const) {
    const count = await countStatements(t.services.db, async () => {
      const res = await call();
      assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
    });
    counts[name] = totalStatements(count);
    described.push(`${name} ${describeCount(count)}`);
  }
  return { counts, described: described.join(', ') };
}

it('a person’s four hosted calls send at most 12 statements, each call within its share', async () => {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }, { role: 'SECRETARY' }] });
  const tokens = await mintLinks(t, partner, created.id);
  for (const individual of created.individuals) {
    const { counts, described } = await countedFlow(await openLink(t, tokens.get(individual.id)!), 'Nguyen');
    for (const [name, most] of Object.entries(budget)) assert.ok(counts[name]! <= most, `${name}: ${counts[name]} statements, at most ${most} (${described})`);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    assert.ok(total <= 12, `${total} statements per person (${described})`);
  }
});

it('a second attempt costs no more than the first (its charge exists already)', async () => {
  const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'DIRECTOR' }] });
  const p = await openLink(t, (await mintLinks(t, partner, created.id)).get(created.individuals[0]!.id)!);
  await countedFlow(p, 'Fail');
  await runDueJobs(t);
  const view = (await p.view()).json<{ attempt: { status: string } }>();
  assert.equal(view.attempt.status, 'RETRY', JSON.stringify(view));
  const second = await countStatements(t.services.db, async () => assert.equal((await p.submit()).statusCode, 200));
  assert.ok(totalStatements(second) <= budget.submit, `submit again: ${describeCount(second)}`);
});
