// Writes the files the README's tour uses, in examples/. They are checked in and never edited by hand:
// test/tour/examples.test.ts fails when they differ from what this script writes now.
//
//   node --import tsx scripts/generate-examples.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deedCorpus, renderDeed } from '../test/helpers/deed-corpus/index.ts';

export const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));

/** The corpus case the sample deed is: a four-page family trust with a nominator and a successor. */
export const sampleDeedCase = 'd06-discretionary-nominator-successor-clause';

/** A list version for the tour's monitoring step: the contact it creates is on it (fictional). */
export const watchList = [
  'id,kind,name,aliases,dateOfBirth,countries,categories,source',
  'pvs-tour-harbour-bookkeeping,business,Harbour Bookkeeping Pty Ltd,Harbour Book-keeping,,AU,SANCTIONS,PVS tour example list (fictional)',
  '',
].join('\n');

export async function exampleFiles(): Promise<Record<string, Buffer>> {
  const deed = deedCorpus().find((c) => c.id === sampleDeedCase);
  if (!deed) throw new Error(`the deed corpus has no case ${sampleDeedCase}`);
  return { 'deed.pdf': await renderDeed(deed), 'watch-list.csv': Buffer.from(watchList) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, bytes] of Object.entries(await exampleFiles())) writeFileSync(`${examplesDir}${name}`, bytes);
}
