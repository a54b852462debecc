// Loading ASIC's company dataset into asic_companies, all or nothing: the file is read inside one
// transaction, so a bad row anywhere rolls everything back and the previous dataset keeps being served.
// The new file replaces the old one: every company it holds is written with this import's timestamp,
// and at the end the companies still carrying an older one (no longer in the file) are deleted.
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/errors.ts';
import { type AsicCompany, AsicDatasetError } from './asic-company.ts';
import * as repo from './asic-companies.repository.ts';
import { readAsicDataset } from './asic-dataset-reader.ts';

export interface AsicImportResult {
  /** Companies held after the import: as many as the file has ACNs. */
  companies: number;
  /** Data rows read (one per company name; the header not counted). */
  rows: number;
  /** Companies held before the import: the dataset this one replaced. */
  replaced: number;
  /** Of those, the companies no longer in the file, now deleted. */
  removed: number;
  /** The timestamp every company of this import carries (`imported_at`). */
  importedAt: Date;
}

/** Companies per statement. Measured: 2 000 is no faster and 5 000 is slower, on both back-ends. */
export const asicImportBatchSize = 1000;

/**
 * Imports a dataset file. A file that cannot be read or has a row we cannot accept is an AppError
 * VALIDATION_ERROR whose detail names the file, the line and the column (`extensions: {line, column}`;
 * the AsicDatasetError is its `cause`); nothing is changed then.
 */
export async function importAsicDataset(db: Database, filePath: string, clock: Clock): Promise<AsicImportResult> {
  const file = path.resolve(filePath);
  await assertReadableFile(file);

  try {
    return await db.transaction(async (tx) => {
      await repo.lockImports(tx);
      // Strictly later than anything held, so "written by this import" is exact even if the clock did
      // not move (or moved back) since the previous import.
      const latest = await repo.latestImportedAt(tx);
      const now = clock.now();
      const importedAt = latest && latest.getTime() >= now.getTime() ? new Date(latest.getTime() + 1) : now;
      const replaced = await repo.countCompanies(tx);

      let rows = 0;
      let batch = new Map<string, AsicCompany>();
      const flush = async () => {
        await repo.upsertCompanies(tx, importedAt, [...batch.values()]);
        batch = new Map();
      };
      for await (const company of readAsicDataset(file)) {
        rows += company.rows;
        // A company whose rows are split in the file: its parts go in separate statements, merged there.
        if (batch.has(company.acn)) await flush();
        batch.set(company.acn, company);
        if (batch.size >= asicImportBatchSize) await flush();
      }
      await flush();
      if (rows === 0) throw new AsicDatasetError(1, undefined, 'the file holds no companies; importing it would remove every company');

      const removed = await repo.deleteCompaniesImportedBefore(tx, importedAt);
      const companies = await repo.countCompanies(tx);
      return { companies, rows, replaced, removed, importedAt };
    });
  } catch (error) {
    if (!(error instanceof AsicDatasetError)) throw error;
    throw new AppError('VALIDATION_ERROR', `${path.basename(file)}: ${error.message}. Nothing was imported; the company dataset held before stays in force.`, {
      extensions: { line: error.line, ...(error.column ? { column: error.column } : {}) },
      cause: error,
    });
  }
}

async function assertReadableFile(file: string): Promise<void> {
  let isFile = false;
  try {
    const handle = await open(file, 'r');
    isFile = (await handle.stat()).isFile();
    await handle.close();
  } catch {
    throw new AppError('VALIDATION_ERROR', `Cannot read ${file}: no such file, or no permission to read it`, { pointer: '/filePath' });
  }
  if (!isFile) throw new AppError('VALIDATION_ERROR', `Cannot read ${file}: not a file`, { pointer: '/filePath' });
}
