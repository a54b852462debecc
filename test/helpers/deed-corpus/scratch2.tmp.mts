import { parsePartyList } from '../../../src/providers/extractor/party-parse.ts';
import { normalisePage } from '../../../src/providers/extractor/deed-text.ts';
const cases = [
  'Wattle Nominees Pty Ltd ACN 123 456 780 of Level 2, 10 Queen Street, Brisbane QLD 4000',
  'John Smith of Unit 4, 27 Beach Road, Bondi Beach NSW 2026 and Jane Smith-Jones of 5 Hill Rd, Glenelg SA 5045',
  '1. Olivia Nguyễn 2. Minh Nguyễn 3. Pieter van der Berg',
  'Hamish Smith of PO Box 1124, Canberra ACT 2601, Angus Smith of Level 12, 17 Queen Parade, Nedlands WA 6009 and Anaïs Maree Smith of 32 Macquarie Lane, Surfers Paradise QLD 4217, or the survivor of them',
  'HARBOUR NOMINEES PTY. LTD. (ACN 000 000 019) whose registered office is at 1 X St, Sydney NSW 2000',
  'Maria de la Cruz, born 3 March 1980; and José Núñez- García',
  'If John Smith dies or becomes mentally incapable, Emily Smith of 4 X St, Sydney NSW 2000',
  'Smith & Jones Nominees Pty Limited A.C.N. 123456780',
  'Mr John Albert SMITH, 12 Wattle Street, Fitzroy VIC 3065',
];
for (const c of cases) {
  const t = normalisePage(c).text;
  console.log('>>', t);
  for (const strict of [false, true]) {
    const r = parsePartyList(t, { strict });
    console.log(strict ? ' strict' : ' loose', JSON.stringify(r?.map((p) => [p.businessName ?? `${p.firstName}|${p.lastName}`, p.acn, p.address, t.slice(p.start, p.end), p.clean])));
  }
}
