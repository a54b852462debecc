// PVS's reading of a passport's zone as the rest of the service uses it: one checkResults item for the
// check job, the finding for document-details. One reader (one OCR worker) per process.
import type { IdentityImage } from '../../../providers/identity/identity-provider.ts';
import { lazy } from '../../../platform/lazy.ts';
import type { CheckResultItem } from '../verifications.repository.ts';
import { judgeMrz, type MrzFinding } from './mrz-check.ts';
import type { EnteredDetails } from './mrz-compare.ts';
import type { createMrzReader, MrzImage, MrzRead, MrzReader } from './mrz-reader.ts';

/** What a read needs of mrz-reader.ts, the module that loads sharp and tesseract.js. */
type MrzReaderModule = { createMrzReader: typeof createMrzReader };

/** sharp and tesseract.js by name first, then the reader on them (platform/lazy.ts says why). */
async function loadMrzReader(): Promise<MrzReaderModule> {
  await Promise.all([import('sharp'), import('tesseract.js')]);
  return import('./mrz-reader.ts');
}

/**
 * The reader, with sharp and tesseract.js (mrz-reader.ts) loaded at the first read, once, however many
 * reads arrive together (platform/lazy.ts); a process that reads no passport never loads them. A load
 * that fails answers that read as any OCR failure does (`OCR_FAILED`: the check is INCONCLUSIVE and the
 * provider's checks decide), and the next read loads again.
 */
export function createLazyMrzReader(load: () => Promise<MrzReaderModule> = loadMrzReader): MrzReader {
  const loadModule = lazy(load);
  // Made once, from the first load that succeeds (synchronously: two reads cannot both make one).
  let reader: MrzReader | undefined;
  let closed = false;

  return {
    async read(image: MrzImage): Promise<MrzRead> {
      if (closed) return { found: false, reason: 'READER_CLOSED' };
      let module: MrzReaderModule;
      try {
        module = await loadModule();
      } catch {
        return { found: false, reason: 'OCR_FAILED' };
      }
      if (closed && !reader) return { found: false, reason: 'READER_CLOSED' };
      reader ??= module.createMrzReader();
      return reader.read(image);
    },

    async close() {
      closed = true;
      await reader?.close();
    },
  };
}

export function createMrzEvidence(reader: MrzReader = createLazyMrzReader()) {
  return {
    /** The zone read now and compared with what was entered, for an evidence answer. */
    async read(front: IdentityImage, entered: EnteredDetails): Promise<MrzFinding> {
      return judgeMrz(await reader.read(front), entered).finding;
    },
    /** The one check item of an attempt. */
    async check(front: IdentityImage, entered: EnteredDetails): Promise<CheckResultItem> {
      return judgeMrz(await reader.read(front), entered).check;
    },
    close: () => reader.close(),
  };
}

export type MrzEvidence = ReturnType<typeof createMrzEvidence>;
