// The console's review of a lookup-bound person whose date of birth is not the register's (decision 122),
// in Chromium: the queue and the review naming the entity through the lookup, why they are in review, the
// two dates side by side with the names, and what that means; a hand-built person's review has no register
// to compare with. axe-core and screenshots (test-output/screenshots/console/{queue-lookup-bound,review-date-of-birth}-*.png).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { anotherDate, createVerification, lookupBoundKingsley, mintLinks, openLink, passport, personDetails, photo, type Person } from '../helpers/verifications.ts';
import { capture, createConsoleOperator, newWebContext, signIn } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('a review of a date of birth that is not the register’s, in the console', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let page: Page;
  let partner: TestPartner;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    browser = await launchBrowser();
    partner = await t.f.partner({ name: 'Harbour Accounting' });
    page = await (await newWebContext(browser)).newPage();
    await signIn(page, t.baseUrl, 'console', await createConsoleOperator(t));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function submitted(person: Person, lastName: string, dateOfBirth: string): Promise<void> {
    for (const res of [await person.details(personDetails(lastName, { firstName: 'Oliver', middleName: 'James', dateOfBirth })), await person.document(passport), await person.selfie(photo())]) {
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
  }

  it('names the entity through the lookup, says why, sets the two dates side by side with the names, and what a difference means', async () => {
    const { requestId, individualId, person, registerBorn } = await lookupBoundKingsley(t, partner);
    const created = { id: requestId };
    const entered = anotherDate(registerBorn);
    await submitted(person, 'Kingsley', entered);

    // A lookup-bound request holds no entity name of its own: the queue and the review name the lookup's.
    await page.goto(`${t.baseUrl}/console`);
    assert.match(await page.locator('tr', { hasText: individualId }).innerText(), new RegExp(`${created.id}\\s+AUSTRAC_CDD · WATTLE CREEK LOGISTICS PTY LTD`));
    await capture(page, 'console/queue-lookup-bound');

    await page.goto(`${t.baseUrl}/console/reviews/${created.id}/${individualId}`);
    assert.equal(await page.locator('dt:has-text("Entity") + dd').innerText(), 'WATTLE CREEK LOGISTICS PTY LTD');
    const why = await page.locator('dt:has-text("Why") + dd').innerText();
    assert.match(why, /Date of birth against the register \(REGISTER_DATE_OF_BIRTH_DIFFERS\): The date of birth entered is not the one the register holds/);
    const claimed = await page.locator('section:has(h2:text("Who they said they are"))').innerText();
    assert.match(claimed, new RegExp(`${entered}\\s+MISMATCH\\s+Register: ${registerBorn}`));

    const against = page.locator('section:has(h2#against-register)');
    assert.match(await against.innerText(), /The date of birth entered is not the register’s\..*someone other than this party completed the link/s);
    const rows = await against.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    assert.deepEqual(rows, [
      ['Name', 'Oliver James Kingsley', 'Oliver James KINGSLEY', 'MATCH'],
      ['Date of birth', entered, registerBorn, 'MISMATCH'],
    ]);
    await capture(page, 'console/review-date-of-birth');
  });

  it('a hand-built person in review has no register to compare with', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP' }] });
    const individualId = created.individuals[0]!.id;
    await submitted(await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!), 'Review', '1966-05-09');
    await page.goto(`${t.baseUrl}/console/reviews/${created.id}/${individualId}`);
    assert.equal(await page.locator('h2:text("Who they said they are")').count(), 1);
    assert.equal(await page.locator('#against-register').count(), 0);
    assert.doesNotMatch(await page.locator('main').innerText(), /Register: \d/);
  });
});
