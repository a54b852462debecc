// The hosted verification page in a real browser (Chromium with a fake camera), at a phone's size: the
// whole flow by keyboard alone (consent, details, a passport chosen through the file dialog, a selfie
// from the camera, submit, the checks run while the page polls, PASSED in plain words); a reload after
// the details resumes at the document step; a file that is not a picture is refused, announced and
// focused; a big photo is made smaller before it is sent; a refused camera leaves the upload; a failed
// attempt offers another; review, an operator's decision, failed, locked out and checks that could not
// run, each in plain words; the notices of spent, replaced and unknown links and of an ended session;
// the same page at a desktop's size. Screenshots go to test-output/screenshots/verification-*.png.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, before, describe, it, type TestContext as NodeTestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { pngChunk, pngSignature, sampleJpeg, samplePng } from '../fixtures/images.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { attemptChecked, person, submitAttempt } from '../helpers/verifications.ts';
import { browserSkipReason, createServedContext, focusedId, launchBrowser, openWatchedPage, phoneViewport, screenshot, unexpectedProblems, type PageProblems } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';

const partnerName = 'Ledger & Sons';
const noProblems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
// Chromium reports every HTTP error status as a console error, even the ones a test expects.
const refusedUpload = /^Failed to load resource: the server responded with a status of 400 .*\/hosted\/v1\/verification-session\/document/;
const endedSession = /^Failed to load resource: the server responded with a status of 401 .*\/hosted\/v1\/verification-session/;
const goneLink = /^Failed to load resource: the server responded with a status of 410 .*\/v\//;
const unknownLink = /^Failed to load resource: the server responded with a status of 404 .*\/v\//;
const phone = phoneViewport;
const desktop = { width: 1280, height: 800 };

/** A 3000 × 1200 PNG (flat grey, tiny when compressed): past the 2000 px the page sends. */
function bigPng(width = 3000, height = 1200): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3), 0x80);
  for (let y = 0; y < height; y++) rows[y * (1 + width * 3)] = 0;
  return Buffer.concat([pngSignature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND')]);
}

/** A JPEG's or PNG's pixel size, from its header. */
function imageSize(bytes: Uint8Array): { width: number; height: number } {
  const data = Buffer.from(bytes);
  if (data.subarray(0, 8).equals(pngSignature)) return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  // A JPEG: the frame header (SOF0 or SOF2) holds the height, then the width.
  for (let p = 2; p + 9 < data.length; p += 2 + data.readUInt16BE(p + 2)) {
    const marker = data.readUInt16BE(p);
    if (marker === 0xffc0 || marker === 0xffc2) return { width: data.readUInt16BE(p + 7), height: data.readUInt16BE(p + 5) };
  }
  throw new Error('no frame header in the JPEG');
}

// Each test skips (and so is counted as skipped) rather than the suite, whose skip the runner does not count.
const skip = browserSkipReason();

describe('the hosted verification page in Chromium', () => {
  let t: TestContext & { baseUrl: string };
  let partner: TestPartner;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    // The checks screen names against a list: the sandbox's, as `pvs serve` loads it.
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    partner = await t.f.partner({ name: partnerName });
    // A camera that shows a test pattern, and a permission prompt that always says yes.
    browser = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A TPB_POI request for one person and the link sent to them. */
  async function newLink(role: string, roleDescription?: string) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/verifications',
      headers: partner.headers,
      payload: { mode: 'TPB_POI', individuals: [{ role, ...(roleDescription ? { roleDescription } : {}) }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const v = created.json<{ id: string; individuals: Array<{ id: string }> }>();
    const links = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: {} });
    assert.equal(links.statusCode, 200, links.body);
    return { requestId: v.id, individualId: v.individuals[0]!.id, url: links.json<{ individuals: Array<{ verificationUrl: string }> }>().individuals[0]!.verificationUrl };
  }

  async function individualStatus(requestId: string): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}`, headers: partner.headers });
    return res.json<{ individuals: Array<{ status: string }> }>().individuals[0]!.status;
  }

  /** The URL in a fresh browser context; a live page must have a strict policy and allow the camera to itself only. */
  async function openPage(test: NodeTestContext, url: string, options: { viewport?: { width: number; height: number }; status?: number; init?: string } = {}) {
    const { page, problems, sent } = await openWatchedPage(browser, test, options.viewport ?? phone);
    await page.addInitScript('window.cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));');
    if (options.init) await page.addInitScript(options.init);
    const response = await page.goto(url);
    const status = options.status ?? 200;
    assert.equal(response?.status(), status, `${url} answers ${status}`);
    if (status === 200) {
      const headers = await response!.allHeaders();
      assert.match(headers['content-security-policy'] ?? '', /script-src 'self';/);
      assert.doesNotMatch(headers['content-security-policy'] ?? '', /unsafe-inline|unsafe-eval/);
      assert.match(headers['permissions-policy'] ?? '', /camera=\(self\)/);
    }
    return { page, problems, sent };
  }

  async function assertNoProblems(page: Page, problems: PageProblems, expected: RegExp[] = []) {
    assert.deepEqual(unexpectedProblems(problems, expected), noProblems);
    assert.deepEqual(await page.evaluate('window.cspViolations'), [], 'no Content-Security-Policy violations');
  }

  async function assertNoSidewaysScroll(page: Page, what: string) {
    const widths = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
    assert.ok(widths.scroll <= widths.client, `${what}: the page is ${widths.scroll}px wide in a ${widths.client}px window`);
  }

  /** The step shown, its heading focused (a screen reader hears where it is), and the progress it reports. */
  async function expectStep(page: Page, step: string, progress?: string) {
    await page.locator(`#step-${step}`).waitFor({ state: 'visible' });
    assert.equal(await page.locator('.step:visible').count(), 1, 'one step at a time');
    assert.equal(await focusedId(page), `step-${step}-title`, `focus moves to the ${step} step's heading`);
    if (progress) assert.equal(await page.locator('#progress-text').innerText(), progress);
    else assert.equal(await page.locator('#progress').isVisible(), false, 'no progress outside the four steps');
  }

  /** Polls an expression (page.waitForFunction evaluates with eval, which the page's policy forbids). */
  async function until(page: Page, expression: string, what: string) {
    const deadline = Date.now() + 15_000;
    while (!(await page.evaluate<boolean>(expression))) {
      assert.ok(Date.now() < deadline, `${what} within 15 s`);
      await page.waitForTimeout(100);
    }
  }

  async function tab(page: Page, id: string) {
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), id, `Tab reaches #${id}`);
  }

  async function tabAndType(page: Page, id: string, text: string) {
    await tab(page, id);
    await page.keyboard.type(text);
  }

  /** The details step by keyboard: each field in reading order, the state chosen with the arrow keys. */
  async function fillDetailsByKeyboard(page: Page, lastName: string) {
    await tabAndType(page, 'first-name', 'Jo');
    await tab(page, 'middle-name');
    await tabAndType(page, 'last-name', lastName);
    await tabAndType(page, 'dob-day', '12');
    await tabAndType(page, 'dob-month', '4');
    await tabAndType(page, 'dob-year', '1988');
    await tabAndType(page, 'line1', '1 George St');
    await tab(page, 'line2');
    await tabAndType(page, 'locality', 'Sydney');
    await tab(page, 'state');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#state').inputValue(), 'NSW');
    await tabAndType(page, 'postcode', '2000');
    await tab(page, 'country');
    assert.equal(await page.locator('#country').inputValue(), 'AU', 'Australia is the default');
    await tabAndType(page, 'email', 'jo@example.com');
    await tab(page, 'phone');
  }

  /** Types into the field the label names on the step shown (the document step has its own Day, Month and Year). */
  async function typeInto(page: Page, label: string, text: string, id: string) {
    await page.locator('.step:visible').getByLabel(label, { exact: true }).focus();
    assert.equal(await focusedId(page), id, `the label "${label}" belongs to #${id}`);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  }

  /** The details step by label, for the tests whose point is elsewhere. */
  async function fillDetails(page: Page, lastName: string) {
    await typeInto(page, 'First name', 'Sam', 'first-name');
    await typeInto(page, 'Last name', lastName, 'last-name');
    await typeInto(page, 'Day', '3', 'dob-day');
    await typeInto(page, 'Month', '11', 'dob-month');
    await typeInto(page, 'Year', '1979', 'dob-year');
    await typeInto(page, 'Street address', '20 Collins St', 'line1');
    await typeInto(page, 'Suburb or town', 'Melbourne', 'locality');
    await page.locator('.step:visible').getByLabel('State or territory', { exact: true }).selectOption('VIC');
    await typeInto(page, 'Postcode', '3000', 'postcode');
  }

  async function consent(page: Page) {
    await page.getByLabel(/^I agree/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#step-details').waitFor({ state: 'visible' });
  }

  /** Runs the background checks while the page polls, until it shows an outcome. */
  async function runChecksUntil(page: Page, step: string) {
    await page.locator('#step-checking').waitFor({ state: 'visible' });
    const deadline = Date.now() + 30_000;
    while (!(await page.locator(`#step-${step}`).isVisible())) {
      assert.ok(Date.now() < deadline, `the page shows ${step} within 30 s`);
      await runDueJobs(t);
      await page.waitForTimeout(250);
    }
  }

  it('goes from the link to PASSED by keyboard alone: consent, details, a passport, a camera selfie, submit, checking', { skip }, async (test) => {
    const { requestId, url } = await newLink('DIRECTOR', 'Signs the company’s tax returns');
    // A link preview (a bot fetching the URL) does not spend the link: only consenting does.
    const preview = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    assert.equal(preview.statusCode, 200);
    assert.equal(await individualStatus(requestId), 'PENDING');

    const { page, problems, sent } = await openPage(test, url);
    assert.equal(await page.locator('.partner').innerText(), partnerName);
    assert.equal(await page.locator('h1:visible').innerText(), 'Verify your identity');
    const intro = await page.locator('#step-consent').innerText();
    assert.match(intro, /Ledger & Sons has asked you to verify your identity as a director\./);
    assert.match(intro, /Ledger & Sons describes your role as “Signs the company’s tax returns”\./, 'the partner’s description, said to be theirs');
    assert.doesNotMatch(intro, /Note from/);
    assert.match(intro, /How your information is used/);
    await assertNoSidewaysScroll(page, 'the consent step');
    await screenshot(page, 'verification-consent-390');

    // Continuing without agreeing is refused, announced and focused.
    await tab(page, 'consent');
    await tab(page, '');
    await page.keyboard.press('Enter');
    await page.locator('#errors').waitFor({ state: 'visible' });
    assert.equal(await focusedId(page), 'errors');
    assert.match(await page.locator('#errors').innerText(), /Tick the box to agree/);
    assert.equal(await page.locator('#consent').getAttribute('aria-invalid'), 'true');
    assert.equal(await individualStatus(requestId), 'PENDING', 'nothing is spent yet');

    await page.locator('#consent').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expectStep(page, 'details', 'Step 1 of 4');
    assert.equal(await individualStatus(requestId), 'IN_PROGRESS');
    const opened = sent.find((r) => r.url === `${t.baseUrl}/hosted/v1/verification-sessions`)!;
    assert.deepEqual(Object.keys(JSON.parse(opened.postData!)), ['token'], 'only the link token is sent to open the session');

    await fillDetailsByKeyboard(page, 'Citizen');
    await assertNoSidewaysScroll(page, 'the details step');
    await screenshot(page, 'verification-details-390');
    await tab(page, '');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Save and continue');
    await page.keyboard.press('Enter');

    await expectStep(page, 'document', 'Step 2 of 4');
    assert.equal(await page.locator('#doc-number').isVisible(), false, 'the document’s fields wait for its type');
    await tab(page, 'type-passport');
    await page.keyboard.press('Space');
    assert.equal(await page.getByLabel('Passport number').isVisible(), true, 'the number is labelled for a passport');
    assert.equal(await page.locator('#issuing-state').isVisible(), false, 'no state for a passport');
    await tab(page, 'issuing-country');
    assert.equal(await page.locator('#issuing-country').inputValue(), 'AU');
    // Listening for the file dialog turns on its interception, which must be on before the key is pressed.
    const chooser = page.waitForEvent('filechooser');
    await tabAndType(page, 'doc-number', 'PA1234567');
    await tabAndType(page, 'expiry-day', '30');
    await tabAndType(page, 'expiry-month', '6');
    await tabAndType(page, 'expiry-year', String(new Date().getUTCFullYear() + 5));
    // The photo through the file dialog, opened from the keyboard.
    await tab(page, 'front');
    await page.keyboard.press('Space');
    await (await chooser).setFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: sampleJpeg({ jfif: 'plain' }) });
    await page.locator('#front-preview').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#front-preview-caption').innerText(), 'passport.jpg');
    await assertNoSidewaysScroll(page, 'the document step');
    await screenshot(page, 'verification-document-390');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Save and continue');
    await page.keyboard.press('Enter');

    await expectStep(page, 'selfie', 'Step 3 of 4');
    await tab(page, 'camera-start');
    assert.equal(await page.locator('#selfie-file').isVisible(), true, 'the upload is always there');
    assert.equal(await page.getByLabel('Upload a photo instead').count(), 1);
    await page.keyboard.press('Enter');
    await page.locator('#camera-video').waitFor({ state: 'visible' });
    assert.equal(await focusedId(page), 'camera-take', 'focus moves to Take photo');
    await until(page, 'document.getElementById("camera-video").videoWidth > 0', 'the camera shows a picture');
    await screenshot(page, 'verification-selfie-camera-390');
    await page.keyboard.press('Enter');
    await page.locator('#selfie-file-preview').waitFor({ state: 'visible' });
    assert.equal(await focusedId(page), 'selfie-submit', 'focus moves to Save and continue');
    assert.match(await page.locator('#busy').innerText(), /Photo taken/);
    assert.equal(await page.locator('#camera-video').isVisible(), false, 'the camera is off once the photo is taken');
    await screenshot(page, 'verification-selfie-390');
    await page.keyboard.press('Enter');

    await expectStep(page, 'review', 'Step 4 of 4');
    assert.deepEqual(await page.locator('.check-state').allInnerTexts(), ['Saved', 'Saved', 'Saved']);
    await screenshot(page, 'verification-review-390');
    for (const step of ['details', 'document', 'selfie']) {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.dataset.goto'), step);
    }
    await tab(page, 'submit-checks');
    await page.keyboard.press('Enter');

    await expectStep(page, 'checking');
    await screenshot(page, 'verification-checking-390');
    await runChecksUntil(page, 'passed');
    await expectStep(page, 'passed');
    const done = await page.locator('#step-passed').innerText();
    assert.match(done, /You’re done/);
    assert.match(done, /Ledger & Sons will be in touch/);
    assert.doesNotMatch(await page.locator('main').innerText(), /score|FACE_MATCH|DOCUMENT_|PASS\b|pass mark/i, 'no check internals');
    assert.equal(await individualStatus(requestId), 'PASSED');
    await assertNoSidewaysScroll(page, 'the result');
    await screenshot(page, 'verification-passed-390');

    // The uploads were multipart forms with the photos as they were chosen and taken.
    const documentCall = sent.find((r) => r.url.endsWith('/hosted/v1/verification-session/document'))!;
    assert.ok(documentCall);
    const selfieCall = sent.find((r) => r.url.endsWith('/hosted/v1/verification-session/selfie'))!;
    assert.ok(selfieCall);

    // Opened again, the page shows the outcome rather than the steps.
    assert.equal((await page.reload())?.status(), 200);
    assert.equal(await page.locator('#step-passed').isVisible(), true);
    await assertNoProblems(page, problems);
  });

  it('resumes at the document step after a reload; refuses a file that is not a picture, announced and focused; sends a big photo smaller; a refused camera leaves the upload; a failed attempt offers another', { skip }, async (test) => {
    const { requestId, individualId, url } = await newLink('AUTHORISED_REP');
    // This browser refuses the camera, as it does when the person says no to the prompt.
    const refuseCamera = "navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));";
    const { page, problems } = await openPage(test, url, { init: refuseCamera });
    assert.match(await page.locator('#step-consent').innerText(), /has asked you to verify your identity as an authorised representative\./);
    assert.equal(await page.locator('#step-consent .notice').count(), 0, 'no note when the partner gave none');
    await consent(page);

    // A date that does not exist is refused before anything is sent.
    await fillDetails(page, 'Fail');
    await typeInto(page, 'Day', '31', 'dob-day');
    await typeInto(page, 'Month', '2', 'dob-month');
    await page.keyboard.press('Enter');
    await page.locator('#errors').waitFor({ state: 'visible' });
    assert.equal(await focusedId(page), 'errors');
    assert.match(await page.locator('#errors').innerText(), /Your date of birth must be a real date/);
    assert.equal(await page.locator('#dob-day').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#dob-error').innerText(), /real date/);
    await screenshot(page, 'verification-details-error-390');
    // The summary's link takes the keyboard to the field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(await focusedId(page), 'dob-day');
    await typeInto(page, 'Month', '3', 'dob-month');
    await page.keyboard.press('Enter');
    await expectStep(page, 'document', 'Step 2 of 4');

    // A reload keeps the session (its cookie) and lands on the first step not saved.
    const reloaded = await page.reload();
    assert.equal(reloaded?.status(), 200);
    await page.locator('#step-document').waitFor({ state: 'visible' });
    assert.equal(await page.locator('.step:visible').count(), 1);
    assert.equal(await page.locator('#progress-text').innerText(), 'Step 2 of 4');
    assert.equal(await individualStatus(requestId), 'IN_PROGRESS');

    await page.getByLabel('Australian driver licence').check();
    assert.equal(await page.locator('#issuing-country').isVisible(), false, 'a licence is Australian');
    await page.getByLabel('State or territory that issued the licence').selectOption('NSW');
    await typeInto(page, 'Licence number', '12345678', 'doc-number');
    await typeInto(page, 'Card number (optional)', 'AB123456', 'card-number');
    await page.locator('#front').setInputFiles({ name: 'licence.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('These are my notes, not a photo of my licence.\n') });
    await page.getByRole('button', { name: 'Save and continue' }).click();

    const errors = page.locator('#errors');
    await errors.waitFor({ state: 'visible' });
    assert.equal(await errors.getAttribute('role'), 'alert');
    assert.equal(await focusedId(page), 'errors', 'focus moves to the announced summary');
    assert.match(await errors.innerText(), /The photo of the front is not a JPEG or PNG image\./);
    assert.equal(await page.locator('#front').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#front-error').innerText(), 'The photo of the front is not a JPEG or PNG image.');
    assert.match((await page.locator('#front').getAttribute('aria-describedby')) ?? '', /\bfront-error\b/, 'the message is read with the field');
    assert.equal(await page.locator('#step-document').isVisible(), true, 'the step stays');
    await assertNoSidewaysScroll(page, 'the refused upload');
    await screenshot(page, 'verification-document-error-390');

    // A photo past 2000 px goes as a JPEG of 2000 px; a small one goes as it is (both are read below).
    await page.locator('#front').setInputFiles({ name: 'licence-front.png', mimeType: 'image/png', buffer: bigPng() });
    await page.locator('#back').setInputFiles({ name: 'licence-back.png', mimeType: 'image/png', buffer: samplePng() });
    await page.locator('#back-preview').waitFor({ state: 'visible' });
    await until(page, 'document.getElementById("front-preview-caption").textContent.includes("made smaller")', 'the big photo is made smaller');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expectStep(page, 'selfie', 'Step 3 of 4');

    // The camera refused: said so, focused, and the upload is what is left.
    await page.getByRole('button', { name: 'Use my camera' }).click();
    await errors.waitFor({ state: 'visible' });
    assert.equal(await focusedId(page), 'errors');
    assert.match(await errors.innerText(), /permission was not given\. Upload a photo of your face instead\./);
    assert.equal(await page.locator('#camera').isVisible(), false, 'no camera button once it is refused');
    assert.equal(await page.getByLabel('Take or upload a photo of your face').getAttribute('capture'), 'user');
    await screenshot(page, 'verification-selfie-refused-390');
    await page.getByLabel('Take or upload a photo of your face').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: sampleJpeg({ jfif: 'plain' }) });
    await page.locator('#selfie-file-preview').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Save and continue' }).click();

    await expectStep(page, 'review', 'Step 4 of 4');
    await page.getByRole('button', { name: 'Submit for checking' }).click();
    await runChecksUntil(page, 'retry');
    await expectStep(page, 'retry');
    const retry = await page.locator('#step-retry').innerText();
    assert.match(retry, /You can try again \(2 attempts left\)/);
    assert.doesNotMatch(await page.locator('main').innerText(), /score|record|FACE_MATCH|DOCUMENT_|pass mark/i, 'no check internals');
    await screenshot(page, 'verification-retry-390');

    // What the page sent, as the identity provider keeps it for the attempt.
    const [row] = await t.services.db.query<{ subject_ref: string }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [individualId]);
    const evidence = await t.services.identity.evidence(row!.subject_ref, { includeScans: true });
    assert.ok(evidence.ok && evidence.evidence);
    const { details, document, selfie } = evidence.evidence;
    assert.deepEqual([details.firstName, details.lastName, details.dateOfBirth, details.address], ['Sam', 'Fail', '1979-03-31', { line1: '20 Collins St', locality: 'Melbourne', state: 'VIC', postcode: '3000', country: 'AU' }]);
    assert.deepEqual(
      { type: document.type, number: document.number, issuingCountry: document.issuingCountry, issuingState: document.issuingState, cardNumber: document.cardNumber, expiryDate: document.expiryDate },
      { type: 'DRIVER_LICENCE', number: '12345678', issuingCountry: 'AU', issuingState: 'NSW', cardNumber: 'AB123456', expiryDate: undefined },
    );
    assert.deepEqual([document.front!.contentType, imageSize(document.front!.bytes)], ['image/jpeg', { width: 2000, height: 800 }], 'the big photo was made smaller');
    assert.deepEqual([document.back!.contentType, imageSize(document.back!.bytes)], ['image/png', { width: 4, height: 3 }], 'the small one went as it was');
    assert.deepEqual([selfie!.contentType, imageSize(selfie!.bytes)], ['image/jpeg', { width: 16, height: 16 }]);

    // Trying again takes new photos of the document and the face, then submits again.
    await page.getByRole('button', { name: 'Try again' }).click();
    await expectStep(page, 'document', 'Step 2 of 4');
    assert.equal(await page.locator('#front-preview').isVisible(), false, 'the old photos are gone');
    await page.locator('#front').setInputFiles({ name: 'licence-front.jpg', mimeType: 'image/jpeg', buffer: sampleJpeg() });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expectStep(page, 'selfie', 'Step 3 of 4');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await errors.waitFor({ state: 'visible' });
    assert.match(await errors.innerText(), /Choose a photo of your face\./, 'a new selfie is needed');
    await page.getByLabel('Take or upload a photo of your face').setInputFiles({ name: 'me-again.png', mimeType: 'image/png', buffer: samplePng() });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expectStep(page, 'review', 'Step 4 of 4');
    await page.getByRole('button', { name: 'Submit for checking' }).click();
    await runChecksUntil(page, 'retry');
    assert.match(await page.locator('#step-retry').innerText(), /\(1 attempt left\)/);
    await assertNoProblems(page, problems, [refusedUpload]);
  });

  it('shows each outcome in plain words when the page is opened again: checking, then review (and an operator’s decision), failed, locked out', { skip }, async (test) => {
    const cases = [
      { lastName: 'Review', attempts: 1, step: 'review-manual', says: /You don’t need to do anything\. Ledger & Sons will be told the outcome/ },
      { lastName: 'Fraud', attempts: 1, step: 'failed', says: /Contact Ledger & Sons to talk about other ways/ },
      { lastName: 'Fail', attempts: 3, step: 'locked', says: /too many attempts.*Contact Ledger & Sons/s },
    ];
    for (const c of cases) {
      const { requestId, individualId, url } = await newLink('DIRECTOR');
      const { page, problems } = await openPage(test, url);
      await consent(page);
      // The steps through the JSON API with the page's own session (its cookie), as another tab would take them.
      const cookie = (await page.context().cookies()).find((k) => k.name === 'pvs_verification_session')!;
      assert.deepEqual([cookie.httpOnly, cookie.secure, cookie.sameSite], [true, true, 'Lax']);
      const p = person(t, cookie.value);
      for (let n = 1; n < c.attempts; n++) await attemptChecked(t, p, c.lastName);
      await submitAttempt(p, c.lastName);

      // Opened again while the checks run: the page says so and polls until they are done.
      assert.equal((await page.reload())?.status(), 200);
      await page.locator('#step-checking').waitFor({ state: 'visible' });
      await runChecksUntil(page, c.step);
      await expectStep(page, c.step);
      assert.match(await page.locator(`#step-${c.step}`).innerText(), c.says);
      assert.doesNotMatch(await page.locator('main').innerText(), /score|FACE_MATCH|FRAUD|fraud|DOCUMENT_|pass mark|list/i, 'no check internals');
      await screenshot(page, `verification-${c.step}-390`);
      assert.equal((await page.reload())?.status(), 200);
      assert.equal(await page.locator(`#step-${c.step}`).isVisible(), true, 'the outcome stays');
      if (c.step === 'review-manual') {
        // An operator's decision is what the page shows next, though the attempt stays MANUAL_REVIEW.
        const operator = await t.f.operator();
        const decided = await t.app.inject({
          method: 'POST',
          url: `/ops/v1/verifications/${requestId}/individuals/${individualId}/decision`,
          headers: operator.headers,
          payload: { decision: 'FAIL', note: 'The selfie is not of the person on the passport' },
        });
        assert.equal(decided.statusCode, 200, decided.body);
        assert.equal((await page.reload())?.status(), 200);
        assert.equal(await page.locator('#step-failed').isVisible(), true, 'the decision, not the attempt');
        assert.doesNotMatch(await page.locator('main').innerText(), /selfie is not of the person/, 'the operator’s note stays with PVS');
      }
      await assertNoProblems(page, problems);
      await page.context().close();
    }
  });

  it('says when the checks could not run, and submits again later', { skip }, async (test) => {
    const { individualId, url } = await newLink('DIRECTOR');
    const { page, problems } = await openPage(test, url);
    await consent(page);
    const cookie = (await page.context().cookies()).find((k) => k.name === 'pvs_verification_session')!;
    const p = person(t, cookie.value);
    await submitAttempt(p, 'Unavailable');
    const [row] = await t.services.db.query<{ subject_ref: string }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [individualId]);
    // The sandbox provider stays down; each retry of the check job is made due at once rather than after its backoff.
    await t.services.db.query("UPDATE sandbox_identity_subjects SET outage_until = now() + interval '100 years' WHERE ref = $1", [row!.subject_ref]);
    assert.equal((await page.reload())?.status(), 200);
    await page.locator('#step-checking').waitFor({ state: 'visible' });
    const attemptStatus = async () => (await p.view()).json<{ attempt: { status: string } }>().attempt.status;
    for (let tries = 0; (await attemptStatus()) === 'CHECKING'; tries++) {
      assert.ok(tries < 10, 'the check job gives up after its ten tries');
      await t.services.db.query("UPDATE jobs SET run_at = now() WHERE kind = 'verifications.check' AND status = 'QUEUED'");
      await runDueJobs(t);
    }
    assert.equal(await attemptStatus(), 'UNAVAILABLE');
    await expectStep(page, 'unavailable');
    assert.match(await page.locator('#step-unavailable').innerText(), /Nothing you entered is lost, and this did not use up an attempt/);
    await screenshot(page, 'verification-unavailable-390');

    // The provider is back: submitting again checks the same details, document and selfie.
    await t.services.db.query("UPDATE sandbox_identity_subjects SET outage_until = now() - interval '1 second' WHERE ref = $1", [row!.subject_ref]);
    await page.getByRole('button', { name: 'Submit again' }).click();
    await runChecksUntil(page, 'passed');
    await expectStep(page, 'passed');
    await assertNoProblems(page, problems);
  });

  it('explains a spent, replaced or unknown link, and a session that a newer link ended', { skip }, async (test) => {
    const spent = await newLink('DIRECTOR');
    const first = await openPage(test, spent.url);
    await consent(first.page);
    await fillDetails(first.page, 'Citizen');

    const replaced = await newLink('TRUSTEE');
    const mint = await t.app.inject({ method: 'POST', url: `/v1/verifications/${replaced.requestId}/links`, headers: partner.headers, payload: {} });
    assert.equal(mint.statusCode, 200, mint.body);

    const cases = [
      { url: spent.url, status: 410, title: 'This link has already been used', says: /opens once, on one device/, shot: 'spent' },
      { url: replaced.url, status: 410, title: 'This link has been replaced', says: /most recent link/, shot: 'replaced' },
      { url: `${t.baseUrl}/v/${'A'.repeat(43)}`, status: 404, title: 'This link is not valid', says: /whole link/, shot: 'unknown' },
      // A token the edge refuses (here a NUL) is a link that does not exist too, said the same way rather than as JSON.
      { url: `${t.baseUrl}/v/${'A'.repeat(42)}%00`, status: 404, title: 'This link is not valid', says: /whole link/, shot: '' },
    ];
    for (const viewport of [phone, desktop]) {
      for (const c of cases) {
        const { page, problems } = await openPage(test, c.url, { viewport, status: c.status });
        assert.equal(await page.locator('h1').innerText(), c.title);
        assert.match(await page.locator('main').innerText(), c.says);
        assert.equal(await page.locator('script').count(), 0, 'no script');
        await assertNoSidewaysScroll(page, c.title);
        if (c.shot) await screenshot(page, `verification-link-${c.shot}-${viewport.width}`);
        await assertNoProblems(page, problems, [goneLink, unknownLink]);
        await page.context().close();
      }
    }

    // A newer link for the same person ends the session the first page has: its next step says so.
    const newer = await t.app.inject({ method: 'POST', url: `/v1/verifications/${spent.requestId}/links`, headers: partner.headers, payload: { individualIds: [spent.individualId] } });
    assert.equal(newer.statusCode, 200, newer.body);
    await first.page.getByRole('button', { name: 'Save and continue' }).click();
    await expectStep(first.page, 'ended');
    assert.match(await first.page.locator('#step-ended').innerText(), /Open the most recent link you were sent, or ask Ledger & Sons for a new one\./);
    await screenshot(first.page, 'verification-ended-390');
    await assertNoProblems(first.page, first.problems, [endedSession]);
  });

  it('reads the same at a desktop’s size', { skip }, async (test) => {
    const { url } = await newLink('UBO');
    const { page, problems } = await openPage(test, url, { viewport: desktop });
    assert.match(await page.locator('#step-consent').innerText(), /has asked you to verify your identity as a beneficial owner\./);
    await screenshot(page, 'verification-consent-1280');
    await consent(page);
    await fillDetails(page, 'Citizen');
    await page.keyboard.press('Enter');
    await expectStep(page, 'document', 'Step 2 of 4');
    await page.getByLabel('Medicare card').check();
    assert.equal(await page.getByLabel('Medicare card number').isVisible(), true);
    assert.equal(await page.getByLabel('Your number on the card').isVisible(), true);
    assert.match(await page.locator('#expiry-hint').innerText(), /leave Day empty/);
    await assertNoSidewaysScroll(page, 'the document step');
    await screenshot(page, 'verification-document-1280');
    await assertNoProblems(page, problems);
  });

  it('picks the flow up when the link is opened again from the message (a navigation from another site)', { skip }, async (test) => {
    const { url } = await newLink('DIRECTOR');
    const { page } = await openPage(test, url);
    await consent(page);
    await page.goto(`data:text/html,<a id="open" href="${url}">Verify your identity</a>`);
    await Promise.all([page.waitForURL(url), page.click('#open')]);
    await page.locator('#step-details').waitFor({ state: 'visible', timeout: 5_000 });
  });
});
