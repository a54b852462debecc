// PVS's reading of a passport's zone as the rest of the service uses it: one checkResults item for the
// check job, the finding for document-details. One reader (one OCR worker) per process.
import type { IdentityImage } from '../../../providers/identity/identity-provider.ts';
import type { CheckResultItem } from '../verifications.repository.ts';
import { judgeMrz, type MrzFinding } from './mrz-check.ts';
import type { EnteredDetails } from './mrz-compare.ts';
import { createMrzReader } from './mrz-reader.ts';

export function createMrzEvidence(reader = createMrzReader()) {
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
