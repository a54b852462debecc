// Writes the shipped fixture screening list in the three formats the importer reads, from the one source
// fixtures/screening/fixture-list.json. The outputs are checked in and never edited by hand:
// src/modules/screening/formats/fixtures.test.ts fails when they differ from what this script writes now.
//
//   node --import tsx scripts/generate-screening-fixtures.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import writeExcelFile, { type Cell, type SheetData } from 'write-excel-file/node';
import type { EntryKind, ScreeningCategory } from '../src/modules/screening/list-entry.ts';
import { countryName } from '../src/modules/screening/formats/countries.ts';

export const fixtureDir = fileURLToPath(new URL('../fixtures/screening/', import.meta.url));
export const fixtureFiles = {
  list: 'fixture-list.json',
  dfat: 'dfat-consolidated-list.xlsx',
  openSanctions: 'opensanctions-targets.simple.csv',
  simple: 'simple-list.csv',
} as const;

export interface FixtureEntry {
  id: string;
  dfatReference: string;
  kind: EntryKind;
  /** The OpenSanctions schema of a business: Company (default), Organization, LegalEntity. */
  schema?: string;
  name: string;
  aliases: string[];
  originalScript: string[];
  datesOfBirth: string[];
  countries: string[];
  identifiers?: string[];
  categories: ScreeningCategory[];
  /** The OpenSanctions dataset titles (`;`-joined) and the simple CSV source. */
  source: string;
  /** The sanctions programme; set on every SANCTIONS entry. */
  sanctions?: string;
  dfat?: { dateOfBirth?: string; citizenship?: string; placeOfBirth?: string; address?: string; aliasReferences?: 'lettered' | 'same' };
}

export function loadFixtureList(dir = fixtureDir): FixtureEntry[] {
  return (JSON.parse(readFileSync(path.join(dir, fixtureFiles.list), 'utf8')) as { entries: FixtureEntry[] }).entries;
}

/** Every alias the entry has, in the order the simple and OpenSanctions formats write them. */
export const allAliases = (entry: FixtureEntry) => [...entry.aliases, ...entry.originalScript];

function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csv(rows: string[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

// Fixed, so the file changes only when the list does.
const seen = { first: '2025-01-15T00:00:00', last: '2026-11-01T00:00:00', change: '2025-06-01T00:00:00' };

export function renderOpenSanctionsCsv(entries: FixtureEntry[]): string {
  const header = ['id', 'schema', 'name', 'aliases', 'birth_date', 'countries', 'addresses', 'identifiers', 'sanctions', 'phones', 'emails', 'program_ids', 'dataset', 'first_seen', 'last_seen', 'last_change'];
  const rows = entries.map((entry) => [
    entry.id,
    entry.kind === 'person' ? 'Person' : (entry.schema ?? 'Company'),
    entry.name,
    allAliases(entry).join(';'),
    entry.datesOfBirth.join(';'),
    entry.countries.map((code) => code.toLowerCase()).join(';'),
    entry.dfat?.address ?? '',
    (entry.identifiers ?? []).join(';'),
    entry.sanctions ?? '',
    '',
    '',
    entry.sanctions ? `PVS-FX-${entry.dfatReference}` : '',
    entry.source,
    seen.first,
    seen.last,
    seen.change,
  ]);
  return csv([header, ...rows]);
}

export function renderSimpleCsv(entries: FixtureEntry[]): string {
  const header = ['id', 'kind', 'name', 'aliases', 'dateOfBirth', 'countries', 'categories', 'source'];
  const rows = entries.map((entry) => [
    entry.id,
    entry.kind,
    entry.name,
    allAliases(entry).join(';'),
    entry.datesOfBirth.join(';'),
    entry.countries.join(';'),
    entry.categories.join(';'),
    entry.source,
  ]);
  return csv([header, ...rows]);
}

export const dfatHeader = [
  'Reference', 'Name of Individual or Entity', 'Type', 'Name Type', 'Alias Strength', 'Date of Birth', 'Place of Birth',
  'Citizenship', 'Address', 'Additional Information', 'Listing Information', 'Committees', 'Control Date',
];

const dateCell = (isoDate: string): Cell => ({ value: new Date(`${isoDate}T00:00:00.000Z`), type: Date, format: 'dd/mm/yyyy' });

/** As DFAT writes them: a full date as a date cell, a bare year as a number, several as "a) … b) …" text. */
function dfatDateOfBirth(entry: FixtureEntry): Cell {
  if (entry.dfat?.dateOfBirth) return entry.dfat.dateOfBirth;
  const dates = entry.datesOfBirth;
  if (dates.length === 0) return null;
  if (dates.length > 1) return dates.map((date, i) => `${'abcdefgh'[i]}) ${date}`).join(' ');
  return /^\d{4}$/.test(dates[0]!) ? Number(dates[0]) : dateCell(dates[0]!);
}

function dfatCitizenship(entry: FixtureEntry): string | null {
  if (entry.kind === 'business') return entry.dfat?.citizenship ?? null;
  if (entry.dfat?.citizenship) return entry.dfat.citizenship;
  const names = entry.countries.map(countryName);
  return names.length === 1 ? names[0]! : names.map((name, i) => `${'abcdefgh'[i]}) ${name}`).join(' ');
}

/** The SANCTIONS entries, one row per name; every row of a listing repeats its details, as DFAT's own file does. */
export function dfatSheetData(entries: FixtureEntry[]): SheetData {
  const rows: SheetData = [dfatHeader];
  for (const entry of entries.filter((e) => e.categories.includes('SANCTIONS'))) {
    const names: Array<[string, string]> = [
      [entry.name, 'Primary Name'],
      ...entry.aliases.map((alias): [string, string] => [alias, 'aka']),
      ...entry.originalScript.map((alias): [string, string] => [alias, 'Original Script']),
    ];
    names.forEach(([name, nameType], i) => {
      const lettered = entry.dfat?.aliasReferences !== 'same';
      const reference = i === 0 || !lettered ? entry.dfatReference : `${entry.dfatReference}${'abcdefghijklmnop'[i - 1]}`;
      rows.push([
        reference,
        name,
        entry.kind === 'person' ? 'Individual' : 'Entity',
        nameType,
        nameType === 'aka' ? 'Strong' : null,
        entry.kind === 'person' ? dfatDateOfBirth(entry) : null,
        entry.dfat?.placeOfBirth ?? null,
        dfatCitizenship(entry),
        entry.dfat?.address ?? null,
        'Synthetic entry of the PVS fixture list; not a real listing.',
        `Listed for tests under ${entry.sanctions ?? 'sanctions'}`,
        entry.sanctions ?? null,
        dateCell('2025-07-01'),
      ]);
    });
  }
  return rows;
}

/** Writes the three list files into `dir` (the shipped fixtures by default) and returns their paths. */
export async function writeScreeningFixtures(dir = fixtureDir, entries = loadFixtureList()): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const paths = [fixtureFiles.dfat, fixtureFiles.openSanctions, fixtureFiles.simple].map((file) => path.join(dir, file));
  await writeExcelFile(dfatSheetData(entries), { sheet: 'Consolidated List' }).toFile(paths[0]!);
  writeFileSync(paths[1]!, renderOpenSanctionsCsv(entries));
  writeFileSync(paths[2]!, renderSimpleCsv(entries));
  return paths;
}

async function main() {
  const paths = await writeScreeningFixtures();
  for (const file of paths) console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
