// Where uploaded deeds wait for analysis. The partner uploads straight to storage with a signed PUT (SPEC
// endpoint rule 8); PVS reads the object at start and deletes it when the analysis ends. Two back-ends:
// local disk under DATA_DIR (PVS serves the PUT itself) and S3 (a presigned PUT).
import { AppError } from '../../platform/errors.ts';

/** What the partner sends: exactly these headers, the PDF as the raw body, before `expiresAt`. */
export interface SignedUpload {
  url: string;
  /** Content-Type application/pdf plus the headers the signature binds. */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface DocumentStorage {
  readonly name: 'local' | 's3';
  /** A signed PUT for `key`, bound to the analysis by a signed header, valid until `expiresAt`. */
  signUpload(key: string, binding: { analysisId: string; expiresAt: Date }): Promise<SignedUpload>;
  /** The object's size in bytes, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The whole object (callers check the size with stat first: at most 25 MiB), or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** Removes the object; removing one that is not there is fine. */
  delete(key: string): Promise<void>;
}

/**
 * Storage unreachable, failing on its side, or its client not loadable: 503 with Retry-After to an API
 * caller, a retry to a job. The cause stays on the error, never in the answer.
 */
export function storageUnavailable(cause: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'Document storage is unavailable; try again shortly', { retryAfter: 5, cause });
}
