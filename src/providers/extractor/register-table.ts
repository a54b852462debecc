// A register printed as a table: a fund's first members, a unit trust's first unitholders. A heading
// (`INITIAL MEMBERS`, `REGISTER OF INITIAL UNITHOLDERS`), the column heads (`Member  Date of birth
// Residential address`, `Unitholder  Address  Units held  Amount paid`), then a row per holder. In a text
// layer a row's cells run together (`SMITH, Jane 23 February 1952 7 Hill St, Perth WA 6000 SMITH, John …`),
// so a row is read from its name to its address's postcode, and the units and amounts after it are
// skipped. A date in a row is a date of birth: it is blanked before anything is read, so it can be neither
// an address nor in a quote.
import type { Mention } from './mentions.ts';
import { parseParty, type ParsedParty } from './party-parse.ts';
import { datePattern, stateAbbrevs, stateNames, ub } from './vocabulary.ts';

const heading = ub(/\b(?:REGISTER\s+OF\s+(?:(?:INITIAL|ORIGINAL|FIRST)\s+)?(UNIT\s?HOLDERS|MEMBERS)|(?:INITIAL|ORIGINAL|FIRST)\s+(UNIT\s?HOLDERS|MEMBERS))\b/giu);
const holderHead = ub(/^\s*(?:Name\s+of\s+)?(Unit\s?holder|Member|Holder)s?(?:'s)?(?:\s+name)?\b|^\s*(?:Full\s+)?Name\b/iu);
const otherHead = ub(/^\s*(?:Date\s+of\s+birth|D\.?O\.?B\.?|(?:Residential|Postal|Registered)\s+address|Address(?:\s+for\s+service)?|(?:Number\s+of\s+)?Units(?:\s+(?:held|issued))?|No\.?\s+of\s+units|Amount\s+paid|Amount|Class(?:\s+of\s+units)?|Consideration|Paid|Issue\s+price)\b/iu);
// What ends the table: the execution, another schedule, a clause, a page's furniture.
const tableEnd = ub(/^\s*(?:EXECUT|Executed|EXECUTION|Signed|SIGNED|IN\s+WITNESS|SCHEDULE|Schedule\s+\d|\d{1,2}\.\s|Page\s+\d|Total|TOTAL)/u);
const postcode = ub(new RegExp(`\\b(?:${[...stateNames, ...stateAbbrevs].join('|')})\\.?,?\\s+\\d{4}\\b`, 'u'));
const holdings = /^(?:\s+\$?\d[\d,]*(?:\.\d{1,2})?)*/u;
// `… Pty Ltd ACN … as trustee for the Smith Family Trust`: the holder is the company; the capacity is not an address.
const capacity = ub(/\bas\s+trustees?\s+(?:for|of)\s+(?:the\s+)?(?:[\p{Lu}\d][\p{L}\d&'.-]*\s+){1,8}?(?:Trust|Fund|Settlement|TRUST|FUND)\b/u);

/** `text` with the first match of `pattern` blanked out (offsets kept), and where that match was (-1: none). */
function blank(text: string, pattern: RegExp): { text: string; at: number } {
  const m = pattern.exec(text);
  return m ? { text: text.slice(0, m.index) + ' '.repeat(m[0].length) + text.slice(m.index + m[0].length), at: m.index } : { text, at: -1 };
}

/** One row from `at`: its holder and where the row ends, or null when no row starts there. */
function readRow(text: string, at: number): { party: ParsedParty; end: number } | null {
  const address = postcode.exec(text.slice(at, at + 400));
  if (!address) return null;
  const rowEnd = at + address.index + address[0].length;
  const date = blank(text.slice(at, rowEnd), datePattern);
  const party = parseParty(blank(date.text, capacity).text, at);
  if (!party || party.nameStart - at > 3) return null;
  // The quote stops before a date of birth: the name (and its numbers) only.
  const beforeDate = at + date.text.slice(0, date.at).trimEnd().length;
  return { party: date.at >= 0 ? { ...party, end: Math.min(party.end, beforeDate) } : party, end: rowEnd + holdings.exec(text.slice(rowEnd))![0].length };
}

/** The holders every register table in `text` names, each a mention of its own (quoted as its row). */
export function registerMentions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const h of text.matchAll(heading)) {
    let at = h.index + h[0].length;
    const head = holderHead.exec(text.slice(at, at + 60));
    if (!head) continue;
    at += head[0].length;
    let columns = 0;
    for (let m = otherHead.exec(text.slice(at, at + 60)); m; m = otherHead.exec(text.slice(at, at + 60))) {
      at += m[0].length;
      columns++;
    }
    if (!columns) continue;
    const role = /unit/iu.test(h[1] ?? h[2] ?? '') ? 'UNITHOLDER' : 'MEMBER';
    for (let rows = 0; rows < 100 && !tableEnd.test(text.slice(at, at + 20)); rows++) {
      const row = readRow(text, at);
      if (!row) break;
      out.push({ role, qualifier: 'current', explicitlyNew: false, source: 'schedule', roleStart: row.party.nameStart, roleEnd: row.party.nameStart, parties: [row.party] });
      at = row.end;
    }
  }
  return out;
}
