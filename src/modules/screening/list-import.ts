// Importing a list file as a new version, all or nothing: the file is read inside one transaction, so
// a bad row anywhere rolls everything back and the previous version stays in force.
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { listReaders } from './formats/index.ts';
import { ListFormatError, type ListEntry } from './list-entry.ts';
import type { IndexedEntry } from './matching/screening-index.ts';
import { createSearchKeyWriter } from './one-off-search.ts';
import * as repo from './screening.repository.ts';

export type ListFormat = 'dfat' | 'opensanctions' | 'csv';

export interface ImportRequest {
  format: ListFormat;
  filePath: string;
  /** The list this file replaces; by default the format's name. */
  list?: string;
}

export interface ImportResult {
  list: string;
  version: number;
  previousVersion: number | null;
  entries: number;
  /** The file is the one already in force for this list: no new version was made. */
  unchanged: boolean;
}

const batchSize = 500;

export function createListImporter(deps: { db: Database; clock: Clock; onImported: () => void; onVersionCreated?: (tx: Tx, version: number) => Promise<void> }) {
  return async function importList(request: ImportRequest): Promise<ImportResult> {
    const list = request.list ?? request.format;
    const file = path.resolve(request.filePath);
    const sha256 = await fileSha256(file);

    const current = await repo.findCurrentVersion(deps.db);
    const inForce = current === null ? undefined : (await repo.listsOfVersion(deps.db, current)).find((l) => l.list === list);
    if (inForce && inForce.file_sha256 === sha256 && inForce.format === request.format) {
      return { list, version: current!, previousVersion: current, entries: inForce.entry_count, unchanged: true };
    }

    try {
      return await deps.db.transaction(async (tx) => {
        await repo.lockVersions(tx);
        const previous = await repo.findCurrentVersion(tx);
        const importId = newId('screeningImport', deps.clock.now().getTime());
        const at = deps.clock.now();
        await repo.insertImport(tx, { id: importId, list, format: request.format, file_name: path.basename(file), file_sha256: sha256, entry_count: 0, imported_at: at });

        // The one-off search's keys go in with the entries, so that a version never exists without them.
        const searchKeys = createSearchKeyWriter(tx, importId);
        let count = 0;
        let batch: IndexedEntry[] = [];
        for await (const entry of listReaders[request.format](file)) {
          batch.push({ ...entry, list, contentHash: contentHash(entry) });
          if (batch.length === batchSize) {
            await repo.insertEntries(tx, importId, batch);
            await searchKeys.add(batch);
            count += batch.length;
            batch = [];
          }
        }
        await repo.insertEntries(tx, importId, batch);
        await searchKeys.add(batch);
        count += batch.length;
        if (count === 0) throw new ListFormatError(1, undefined, 'the file holds no entries; an empty list would clear every match');

        await repo.setEntryCount(tx, importId, count);
        await searchKeys.finish(at);
        const version = (previous ?? 0) + 1;
        await repo.insertVersion(tx, version, importId, list, previous, at);
        await repo.deleteSearchKeysOutside(tx, version);
        await deps.onVersionCreated?.(tx, version);
        tx.afterCommit(deps.onImported);
        return { list, version, previousVersion: previous, entries: count, unchanged: false };
      });
    } catch (error) {
      if (!(error instanceof ListFormatError)) throw error;
      const stays = current === null ? 'no list is loaded yet' : `list version ${current} stays in force`;
      throw new AppError('VALIDATION_ERROR', `${path.basename(file)}: ${error.message}. Nothing was imported; ${stays}.`, {
        extensions: { row: error.row, ...(error.column ? { column: error.column } : {}) },
      });
    }
  };
}

async function fileSha256(file: string): Promise<string> {
  let isFile: boolean;
  try {
    await access(file, constants.R_OK);
    isFile = (await stat(file)).isFile();
  } catch {
    throw new AppError('VALIDATION_ERROR', `Cannot read ${file}: no such file, or no permission to read it`, { pointer: '/filePath' });
  }
  // A directory fails the read; a device (/dev/zero) would be read for ever.
  if (!isFile) throw new AppError('VALIDATION_ERROR', `Cannot read ${file}: not a file`, { pointer: '/filePath' });
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What the matcher reads, in a fixed order: equal for an entry carried unchanged into a new file. */
function contentHash(entry: ListEntry): string {
  const sorted = (values: string[]) => [...values].sort();
  const canonical = [entry.kind, entry.name, sorted(entry.aliases), sorted(entry.datesOfBirth), sorted(entry.countries), sorted(entry.identifiers), sorted(entry.categories)];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 32);
}
