// For the readers' tests: every entry of a file, or the ListFormatError it stops on.
import assert from 'node:assert/strict';
import { type ListEntry, ListFormatError, type ListReader } from '../list-entry.ts';

export async function readEntries(reader: ListReader, file: string): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  for await (const entry of reader(file)) entries.push(entry);
  return entries;
}

export async function formatErrorOf(reader: ListReader, file: string): Promise<ListFormatError> {
  try {
    await readEntries(reader, file);
  } catch (error) {
    if (error instanceof ListFormatError) return error;
    throw error;
  }
  assert.fail('expected a ListFormatError');
}
