// The two PDF reports, rendered from models and read back with pdfjs: what they print, that every page
// carries its header and footer, that nothing runs into them or off the page, that the fonts are embedded
// (names in any Latin script come back intact) and that the same model gives the same bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfInfo, pdfPages, pdfText, type PdfPage } from '../../../../test/helpers/pdf-text.ts';
import {
  dateOfBirthDiffersEntityModel,
  dateOfBirthDiffersIndividualModel,
  handBuiltEntityModel,
  lookupBoundEntityModel,
  names,
  operatorId,
  partialOwnershipEntityModel,
  passedIndividualModel,
  pendingIndividualModel,
  reportSamples,
  requestId,
  reviewIndividualModel,
  tenIndividualEntityModel,
  twoLevelOwnership,
} from '../../../../test/helpers/report-models.ts';
import { renderEntityReport } from './entity-report.ts';
import { renderIndividualReport } from './individual-report.ts';
import { howHeld, treeLines } from './ownership-section.ts';
import { formatAbn, formatAcn, formatDate, formatPercent, formatTime } from './report-format.ts';
import type { ReportOwnership } from './report-model.ts';

const textOf = async (pdf: Buffer) => (await pdfText(pdf)).join('\n');

function assertPrints(text: string, expected: string[]): void {
  for (const value of expected) assert.ok(text.includes(value), `the report prints “${value}”`);
}

// Rendering and reading PDFs takes seconds and no database: once, in the PGlite pass (CI counts both passes).
const pdfSkip = process.env.TEST_DATABASE === 'postgres' && 'PDF rendering needs no database: it runs in the PGlite pass only';

describe('report formats', () => {
  it('writes dates, times, shares and numbers as an Australian reader expects', () => {
    assert.equal(formatDate('1961-03-14'), '14 March 1961');
    assert.equal(formatDate('2009-11-02'), '2 November 2009');
    assert.equal(formatDate('not a date'), 'not a date');
    assert.equal(formatTime(new Date('2026-11-24T03:14:59.999Z')), '24 Nov 2026 03:14 UTC');
    assert.deepEqual([40, 100 / 3, 12.5, 30.0000001, 66.667].map(formatPercent), ['40 %', '33.33 %', '12.5 %', '30 %', '66.67 %']);
    assert.equal(formatAbn('54222222228'), '54 222 222 228');
    assert.equal(formatAcn('222222228'), '222 222 228');
    assert.equal(formatAcn('12345'), '12345');
  });
});

describe('the ownership tree', () => {
  it('puts each owner under what it owns, with its share of it', () => {
    assert.deepEqual(
      treeLines(twoLevelOwnership()).map((l) => [l.depth, l.label, l.share]),
      [
        [0, 'WATTLE CREEK LOGISTICS PTY LTD', ''],
        [1, names.direct, '40 %'],
        [1, 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', '60 %'],
        [2, names.holderA, '50 %'],
        [2, names.holderB, '50 %'],
      ],
    );
    assert.match(treeLines(twoLevelOwnership())[2]!.detail, /ACN 333 333 332/);
    assert.equal(howHeld(twoLevelOwnership(), 'n2'), 'Directly');
    assert.equal(howHeld(twoLevelOwnership(), 'n4'), 'Through FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD');
  });

  it('prints a company held through two owners under each, and follows a loop once', () => {
    const ownership = partialOwnershipEntityModel().ownership!;
    const lines = treeLines(ownership);
    // Rivergum holds Ironbark, which holds Rivergum: printed again under Ironbark, and not followed.
    const rivergum = lines.filter((l) => l.label === 'RIVERGUM INVESTMENTS PTY LTD');
    assert.equal(rivergum.length, 2);
    assert.match(rivergum[1]!.detail, /loop/);
    assert.equal(lines.filter((l) => l.label === names.holderA).length, 2, 'Zoë holds both Rivergum and Ironbark');
    assert.ok(lines.some((l) => l.label === 'M. R. ABERNATHY' && l.share === '12 %'));
  });

  it('stops at eight levels however long the chain', () => {
    const chain: ReportOwnership = { ...twoLevelOwnership(), nodes: [], edges: [], beneficialOwners: [] };
    for (let i = 1; i <= 30; i++) chain.nodes.push({ id: `n${i}`, kind: 'COMPANY', name: `LINK ${i} PTY LTD`, acn: null, abn: null });
    for (let i = 2; i <= 30; i++) chain.edges.push({ ownerId: `n${i}`, ownedId: `n${i - 1}`, percent: 100 });
    const lines = treeLines(chain);
    assert.equal(Math.max(...lines.map((l) => l.depth)), 8);
    assert.match(lines.at(-1)!.detail, /not shown \(more than 8 levels\)/);
  });
});

describe('the entity report', { skip: pdfSkip }, () => {
  it('prints the registry identity, the ownership tree and each person of a lookup-bound request', async () => {
    const text = await textOf(await renderEntityReport(lookupBoundEntityModel()));
    assertPrints(text, [
      'WATTLE CREEK LOGISTICS PTY LTD',
      'ABN 54 222 222 228',
      '222 222 228',
      'Active since 2 November 2009',
      'Registered from 1 December 2009',
      'Wattle Creek Freight',
      'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD Company · ACN 333 333 332',
      'Ownership completeness: High',
      'Through FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD',
      'Verified by manual review',
      operatorId,
      'reasons are kept in PVS’s review record',
      'Needs manual review',
    ]);
    assert.ok(!text.includes('Register data is unavailable'));
  });

  it('sets each person beside the register’s name for the party, and warns where they differ', async () => {
    const text = await textOf(await renderEntityReport(lookupBoundEntityModel()));
    assertPrints(text, [
      '5 people to verify; 1 verified name differs from the register’s',
      'On the register as Soren AEROE',
      'On the register as Sule DEMIR',
      'The verified name is not the name on the register.',
      'The person verified as Şule Çağlar; the register names this party Sule DEMIR',
      // A party who has not verified yet is titled by the register's name.
      'Margaret Anne FAIRBAIRN',
    ]);
    assert.equal(text.split('The verified name is not the name on the register.').length - 1, 1, 'only the director is warned about');
  });

  it('sets a date of birth that is not the register’s beside the register’s, and counts it in the summary (decision 122)', async () => {
    const text = await textOf(await renderEntityReport(dateOfBirthDiffersEntityModel()));
    assertPrints(text, [
      '5 people to verify; 1 verified name differs and 1 date of birth differs from the register’s',
      'The date of birth entered is not the one on the register.',
      'The person entered 2 March 1980; the register holds 14 July 1979 for this party.',
      'either the register is wrong or someone other than this party completed the verification',
    ]);
    assert.equal(text.split('The date of birth entered is not the one on the register.').length - 1, 1, 'only the director is warned about');
    // Where the dates agree, or the register holds none, nothing is said about them.
    const same = await textOf(await renderEntityReport(lookupBoundEntityModel()));
    assert.ok(!same.includes('date of birth'), 'no date of birth is printed where none differs');
  });

  it('says a hand-built request has no register data and no ownership, where they would be', async () => {
    const text = await textOf(await renderEntityReport(handBuiltEntityModel()));
    assertPrints(text, ['Hand Built Pty Ltd', 'Register data is unavailable', 'has not checked the entity against the Australian Business Register', 'No ownership structure', 'Not yet provided']);
    assert.ok(!/ABN \d/.test(text), 'no ABN is printed');
  });

  it('runs ten people over several pages, each with their outcome, and lists the issues', async () => {
    const model = tenIndividualEntityModel();
    const pages = await pdfText(await renderEntityReport(model));
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    const text = pages.join('\n');
    for (const individual of model.individuals) assert.ok(text.includes(individual.individualId), `${individual.individualId} is in the report`);
    assertPrints(text, ['Failed: attempts used up', 'Identity checks delayed', 'IDENTITY_CHECKS_DELAYED', 'The whole request']);
  });

  it('explains what could not be traced: the trust, the unlinked holder, the loop', async () => {
    const text = await textOf(await renderEntityReport(partialOwnershipEntityModel()));
    assertPrints(text, ['Ownership completeness: Partial', 'Ownership not traced through', 'from the trust deed', 'Owners that could not be linked', 'M. R. ABERNATHY holds 12 %', 'go round in a loop', '66.67 %']);
  });
});

describe('the individual report', { skip: pdfSkip }, () => {
  it('prints the verified identity, every check and the clear screening', async () => {
    const text = await textOf(await renderIndividualReport(passedIndividualModel()));
    assertPrints(text, ['Zoë Inés Ñúñez-Łukasiewicz', 'On the register as Zoe NUNEZ-LUKASIEWICZ', 'Verified identity', '14 March 1961', 'Unit 4, 48 Banksia Parade', 'Brunswick East VIC 3057', 'PA1234567', 'Passport', 'Australia', '30 June 2031', 'zoe.nunez@example.com.au', 'Face match', 'AML_CLEAR', 'AML screening: clear', 'Failed, retry allowed', 'Passed']);
  });

  it('says details are not verified while they wait for review, and how many list entries may match', async () => {
    const text = await textOf(await renderIndividualReport(reviewIndividualModel()));
    assertPrints(text, ['Identity given (not verified)', 'Needs manual review', 'AML screening: possible matches (2)', '2 list entries may be this person', 'FACE_MATCH_INCONCLUSIVE', 'NSW, Australia']);
  });

  it('prints the register’s date of birth beside a differing one, in the summary and the identity, with the check that sent the person to review', async () => {
    const text = await textOf(await renderIndividualReport(dateOfBirthDiffersIndividualModel()));
    assertPrints(text, [
      'Date of birth on the register 14 July 1979 (not the date of birth entered)',
      'Date of birth 2 March 1980',
      'Date of birth on the register 14 July 1979: not the date entered',
      'The date of birth entered is not the one on the register.',
      'The person entered 2 March 1980; the register holds 14 July 1979 for this party.',
      'REGISTER_DATE_OF_BIRTH_DIFFERS',
      'Needs manual review',
    ]);
    const passed = await textOf(await renderIndividualReport(passedIndividualModel()));
    assert.ok(!passed.includes('on the register 14') && !passed.includes('not the one on the register'), 'a date that is the register’s is printed once');
  });

  it('says why there is no identity for a person who has not started, on one page', async () => {
    const pages = await pdfText(await renderIndividualReport(pendingIndividualModel()));
    assert.equal(pages.length, 1);
    assertPrints(pages[0]!, ['Name not yet provided', 'The person has not given their details yet.', 'No checks have run yet', 'Tax Practitioners Board proof of identity']);
  });
});

/** Every fixture, rendered once: the checks below hold for every report. */
async function allReports(): Promise<Array<{ name: string; pdf: Buffer }>> {
  return Promise.all(
    Object.entries(reportSamples).map(async ([name, sample]) => ({ name, pdf: sample.kind === 'entity' ? await renderEntityReport(sample.model()) : await renderIndividualReport(sample.model()) })),
  );
}

// The page's bands, in points from the top (pdf-style.ts `page`): header above 60, footer below height − 55.
const headerBottom = 60;
const footerTop = (page: PdfPage) => page.height - 55;

describe('every page of every report', { skip: pdfSkip }, () => {
  it('carries the title, the request id, the generation time and “Page X of Y”', async () => {
    for (const { name, pdf } of await allReports()) {
      const pages = await pdfText(pdf);
      pages.forEach((page, i) => {
        const where = `${name} page ${i + 1}`;
        assert.ok(page.includes(`Verification request ${requestId}`), `${where}: request id`);
        assert.ok(page.includes('Generated 24 Nov 2026 03:14 UTC (2026-11-24T03:14:07Z)'), `${where}: generation time`);
        assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `${where}: page number`);
        assert.ok(page.includes(name.startsWith('entity') ? 'Entity due diligence report' : 'Individual verification report'), `${where}: title`);
      });
    }
  });

  it('keeps the content off the header and footer and inside the page', async () => {
    for (const { name, pdf } of await allReports()) {
      for (const [i, page] of (await pdfPages(pdf)).entries()) {
        for (const item of page.items) {
          const where = `${name} page ${i + 1}: “${item.text}” at ${item.x.toFixed(1)}, ${item.y.toFixed(1)}`;
          assert.ok(item.x >= 49 && item.x + item.width <= page.width - 49, `${where} is inside the side margins`);
          const inBands = item.y < headerBottom || item.y > footerTop(page);
          if (inBands) assert.match(item.text, /^(Entity due diligence report|Individual verification report|Verification request ver_|Generated |Page \d+ of \d+|PVS partner verification service)/, `${where} is in the header or footer`);
          if (/^(Verification request ver_|Generated \d|Page \d+ of \d+$)/.test(item.text)) assert.ok(inBands, `${where} is header or footer, drawn in the content`);
        }
      }
    }
  });

  it('embeds its fonts, Noto Sans only, so every name comes back as entered', async () => {
    for (const { name, pdf } of await allReports()) {
      for (const [i, page] of (await pdfPages(pdf)).entries()) {
        assert.ok(page.fonts.length > 0);
        for (const font of page.fonts) {
          assert.equal(font.missingFile, false, `${name} page ${i + 1}: ${font.name} is embedded`);
          assert.match(font.name, /^[A-Z]{6}\+NotoSans-/, `${name} page ${i + 1}: ${font.name} is a Noto Sans subset`);
        }
      }
      const raw = pdf.toString('latin1');
      assert.equal(raw.match(/\/FontFile2/g)?.length, raw.match(/\/Type \/FontDescriptor/g)?.length, `${name}: every font carries its file`);
      assert.doesNotMatch(raw, /\/BaseFont \/(Helvetica|Times|Courier|Symbol|ZapfDingbats)/, `${name}: no standard font`);
    }
    const text = await textOf(await renderEntityReport(lookupBoundEntityModel()));
    for (const person of [names.direct, names.holderA, names.holderB, names.director]) assert.ok(text.includes(person), `${person} comes back intact`);
    // Typed with combining marks (NFD), a name prints with the same letters as when typed composed.
    const model = passedIndividualModel();
    model.identity!.lastName = 'Nguyễn Thị'.normalize('NFD');
    assert.ok((await textOf(await renderIndividualReport(model))).includes('Nguyễn Thị'));
  });

  it('is the same bytes for the same model, with the PDF’s dates from the model', async () => {
    const model = tenIndividualEntityModel();
    const [a, b] = [await renderEntityReport(model), await renderEntityReport(model)];
    assert.ok(a.equals(b));
    const info = await pdfInfo(a);
    assert.deepEqual([info.Title, info.Author, info.CreationDate], [`Entity due diligence report, ${requestId}`, 'PVS', 'D:20261124031407Z']);
    assert.equal(info.Subject, 'Customer due diligence for WATTLE CREEK LOGISTICS PTY LTD');
  });
});
