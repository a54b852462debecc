// Monitored contacts as an Australian accounting platform's customers look: small businesses named for
// a place, a family or a trade, and people with the names common in Australia; plus a small share taken
// from listed entries (as a partner would type them), so that re-screens do raise alerts. Seeded: the
// same contacts on every machine.
import type { IndexedEntry } from '../../src/modules/screening/matching/screening-index.ts';
import type { RescreenSubject } from '../../src/modules/screening/screening.service.ts';
import { createRandom, zipf, type Random } from './random.ts';

const words = (text: string) => text.trim().split(/\s+/).map((w) => w.replace(/_/g, ' '));

const places = words(`Bondi Parramatta Wattle Banksia Harbour Southern_Cross Murray Darling Blue_Mountains Hunter_Valley Bayside Northside
  Westside Eastern Coastal Outback Red_Centre Kimberley Pilbara Gold_Coast Sunshine_Coast Byron Noosa Cairns Townsville Ballarat Bendigo
  Geelong Launceston Hobart Fremantle Cottesloe Glenelg Barossa Yarra Dandenong Illawarra Shoalhaven Riverina Gippsland Mornington
  Kangaroo_Island Ironbark Paperbark Coolabah Jacaranda Bottlebrush Kookaburra Lorikeet Wombat Platypus Echidna Bilby Magpie Galah
  Anzac Federation Coral_Sea Tasman Great_Southern Inland Highland Lakeside Riverside Hilltop Valley Creekside Saltbush Mallee`);
const families = words(`Smith Jones Williams Brown Wilson Taylor Johnson White Martin Anderson Thompson Nguyen Tran Le Pham Chen Wang Li Zhang
  Liu Patel Singh Sharma Kumar Kaur Papadopoulos Nikolaidis Rossi Russo Bianchi Romano Khoury Haddad Nasser Kelly Murphy O'Brien Ryan
  Walsh Campbell Stewart MacDonald Robertson Kim Park Lee Choi Tanaka Sato Fernandes Silva Costa Novak Kowalski Jankovic Petrovic`);
const given = words(`Jack Oliver William Noah Thomas James Lucas Henry Charlie Liam Ethan Mason Olivia Charlotte Amelia Isla Mia Ava Grace
  Chloe Sophie Emily Ruby Zoe Harper Minh Linh Thanh Wei Jun Mei Xin Priya Arjun Rahul Anjali Sanjay Giorgos Eleni Dimitri Marco
  Giulia Luca Sofia Fatima Omar Layla Karim Sean Siobhan Declan Aoife Hiroshi Yuki Ji-woo Min-jun Ana Joao Piotr Marta Nikola Ivana`);
const trades = words(`Plumbing Electrical Bakery Cafe Accounting Bookkeeping Physiotherapy Dental Constructions Builders Landscaping
  Logistics Transport Freight Motors Auto_Repairs Legal Consulting Engineering Surveying Joinery Cabinets Roofing Painting Printing
  Nursery Orchards Vineyards Dairy Seafood Butchers Florist Childcare Fitness Yoga Pharmacy Optometry Veterinary Real_Estate Property
  Investments Holdings Hospitality Catering Cleaning Security IT_Services Software Media Design Architects Tiling Concreting Fencing`);
const forms = words(`Pty_Ltd Pty_Ltd Pty_Ltd Pty._Ltd. Pty_Limited & Co Trust Partners Group Services Enterprises`);

const pickPlace = zipf(places);
const pickFamily = zipf(families);
const pickGiven = zipf(given);
const pickTrade = zipf(trades);

function businessName(random: Random): string {
  const r = random.next();
  const head = r < 0.45 ? pickPlace(random) : r < 0.8 ? `${pickFamily(random)}${random.chance(0.3) ? ' & Sons' : ''}` : `${pickFamily(random)} & ${pickFamily(random)}`;
  const trade = random.chance(0.2) ? `${pickTrade(random)} & ${pickTrade(random)}` : pickTrade(random);
  return `${head} ${trade}${random.chance(0.8) ? ` ${random.pick(forms)}` : ''}`;
}

function personName(random: Random): string {
  return `${pickGiven(random)}${random.chance(0.3) ? ` ${pickGiven(random)}` : ''} ${pickFamily(random)}`;
}

/**
 * `count` contacts: `personShare` of them people, and `listedShare` named after an entry of `entries`
 * (its name or an alias, as printed on the list).
 */
export function generateMonitoredContacts(count: number, entries: readonly IndexedEntry[], options: { seed?: number; personShare?: number; listedShare?: number } = {}): RescreenSubject[] {
  const random = createRandom(options.seed ?? 7_007);
  const personShare = options.personShare ?? 0.15;
  const listedShare = options.listedShare ?? 0.005;
  const out: RescreenSubject[] = [];
  for (let i = 0; i < count; i++) {
    const subjectId = `c${i}`;
    if (random.chance(listedShare)) {
      const entry = random.pick(entries);
      const name = entry.aliases.length > 0 && random.chance(0.3) ? random.pick(entry.aliases) : entry.name;
      out.push(entry.kind === 'person' ? { subjectId, kind: 'person', person: { names: [name] } } : { subjectId, kind: 'business', business: { name } });
    } else if (random.chance(personShare)) {
      out.push({ subjectId, kind: 'person', person: { names: [personName(random)] } });
    } else {
      out.push({ subjectId, kind: 'business', business: { name: businessName(random) } });
    }
  }
  return out;
}
