// PVS's reading of a passport's zone as the rest of the service uses it: one checkResults item for the
// check job, the findings for document-details. One reader (one OCR worker) per process.
import type { IdentityImage } from '../../../providers/identity/identity-provider.ts';
import type { CheckResultItem } from '../verifications.repository.ts';
import { findingsOf, mrzCheckOf, type Entered, type MrzFindings } from './mrz-compare.ts';
import { createMrzReader } from './mrz-reader.ts';

export function createMrzEvidence(reader = createMrzReader()) {
  async function read(front: IdentityImage, entered: Entered): Promise<MrzFindings> {
    const result = await reader.read(front);
    return findingsOf(result.found ? result.td3 : undefined, entered);
  }

  return {
    /** The zone read now and compared with what was entered, for an evidence answer. */
    read,
    /** The one check item of an attempt. */
    async check(front: IdentityImage, entered: Entered): Promise<CheckResultItem> {
      return mrzCheckOf(await read(front, entered));
    },
    close: () => reader.close(),
  };
}

export type MrzEvidence = ReturnType<typeof createMrzEvidence>;
