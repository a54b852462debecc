// The operator console's review of a person Onfido checked (IDENTITY_PROVIDER=onfido, against the local
// stand-in of Onfido's API), in Chromium: Onfido's own results behind the checks, each report with the
// sub-checks that were not clear and a count of the others. axe-core and screenshots at a desktop and a
// phone width (test-output/screenshots/console/review-onfido-{desktop,phone}.png).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, launchBrowser } from '../helpers/browser.ts';
import type { TestContext } from '../helpers/context.ts';
import { startOnfidoStandIn, type OnfidoStandIn } from '../helpers/onfido-stand-in/index.ts';
import { createVerification, mintLinks, openLink, personDetails } from '../helpers/verifications.ts';
import { capture, createConsoleOperator, newWebContext, signIn } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('the console’s review of a person Onfido checked, in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let standIn: OnfidoStandIn;
  let browser: Browser;
  let page: Page;

  before(async () => {
    if (skip) return;
    standIn = await startOnfidoStandIn();
    t = await createServedContext({
      env: { IDENTITY_PROVIDER: 'onfido', ONFIDO_API_TOKEN: standIn.apiToken, ONFIDO_REGION: 'eu', ONFIDO_WEBHOOK_TOKEN: standIn.webhookToken, ONFIDO_API_URL: standIn.url },
    });
    standIn.setWebhookUrl(`${t.baseUrl}/providers/onfido/webhooks`);
    // The check job screens the claimed identity too: without a list loaded, screening is unavailable.
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    browser = await launchBrowser();
    page = await (await newWebContext(browser)).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await standIn?.close();
  });

  /** A person whose every Onfido report is to consider (the stand-in's `Consider`): MANUAL_REVIEW. */
  async function checkedByOnfido(): Promise<string> {
    const partner = await t.f.partner({ name: 'Ledger Tax' });
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP' }] });
    const individualId = created.individuals[0]!.id;
    const person = await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!);
    for (const res of [await person.details(personDetails('Consider')), await person.document(), await person.selfie(), await person.submit()]) assert.equal(res.statusCode, 200, res.body);
    // The check job starts Onfido's check and waits; the stand-in's notification wakes it when it completes.
    for (let i = 0; i < 400; i++) {
      await runDueJobs(t);
      const [row] = await t.services.db.query<{ status: string }>('SELECT status FROM verification_individuals WHERE id = $1', [individualId]);
      if (row!.status !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [row] = await t.services.db.query<{ status: string }>('SELECT status FROM verification_individuals WHERE id = $1', [individualId]);
    const [job] = await t.services.db.query<{ last_error: string | null }>('SELECT last_error FROM jobs WHERE key = $1', [`verification-check:${individualId}:1`]);
    assert.equal(row!.status, 'MANUAL_REVIEW', `the check job: ${job?.last_error ?? 'no error'}`);
    return `/console/reviews/${created.id}/${individualId}`;
  }

  it('shows each report’s result and sub-result, the sub-checks not clear, and how many others were', async () => {
    const review = await checkedByOnfido();
    await signIn(page, t.baseUrl, 'console', await createConsoleOperator(t), review);
    assert.equal(new URL(page.url()).pathname, review);

    const results = page.locator('table', { has: page.locator('caption', { hasText: 'Onfido’s own results behind those checks' }) });
    const rows = await results.locator('tbody tr').allInnerTexts();
    const flat = rows.map((r) => r.replace(/\s+/g, ' ').trim());
    assert.equal(flat.length, 3, flat.join('\n'));
    assert.match(flat.find((r) => r.startsWith('document'))!, /^document consider caution consider data_validation\.document_expiration 43 other items clear\.$/);
    assert.match(flat.find((r) => r.startsWith('facial'))!, /^facial_similarity_photo consider — consider face_comparison\.face_match 5 other items clear\.$/);
    assert.match(flat.find((r) => r.startsWith('identity'))!, /^identity_enhanced consider — consider date_of_birth\.credit_agencies consider date_of_birth\.voting_register 7 other items clear\.$/);
    await capture(page, 'console/review-onfido');
  });
});
