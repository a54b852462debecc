// The S3 back-end (AWS S3 or an S3-compatible store): the partner PUTs straight to the bucket with a
// presigned URL. The URL signs (SigV4) Content-Type, SSE-S3 encryption and the analysis id as
// metadata, and they stay headers rather than query parameters, so S3 itself refuses any change to
// them with 403. A presigned PUT cannot cap the body's size: `start` checks it with `stat` before
// `read`, and the bucket's lifecycle rule removes what is left behind (README.md).
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { storageUnavailable, type DocumentStorage, type SignedUpload } from './storage.ts';
import { assertAnalysisId, assertStorageKey, uploadWindowEnd } from './storage-keys.ts';

export interface S3DocumentStorage extends DocumentStorage {
  readonly name: 's3';
}

export interface S3StorageOptions {
  bucket: string;
  /** Unset: the SDK's own (AWS_REGION, the shared config file). */
  region?: string;
  /** An S3-compatible endpoint (MinIO, R2 …); unset means AWS. */
  endpoint?: string;
  /** `bucket` in the path rather than the host name; most S3-compatible stores need it. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's default chain (environment, shared files, container or instance role). */
  credentials?: S3ClientConfig['credentials'];
  clock?: Clock;
}

/** The presigned headers, lower-case as SigV4 signs them. */
const signedHeaders = ['content-type', 'x-amz-server-side-encryption', 'x-amz-meta-analysis-id'];
/** SigV4 presigned URLs live at most 7 days. */
const maxPresignSeconds = 7 * 24 * 3600;

export function createS3Storage(options: S3StorageOptions): S3DocumentStorage {
  const clock = options.clock ?? systemClock;
  const { bucket } = options;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Otherwise the SDK presigns a CRC32 of the empty body it was given, and S3 refuses the real file.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
  });

  return {
    name: 's3',

    async signUpload(key, binding): Promise<SignedUpload> {
      assertStorageKey(key);
      assertAnalysisId(binding.analysisId);
      // SigV4 dates are whole seconds: sign at the second and end exactly at the window's second.
      const nowSeconds = Math.floor(clock.now().getTime() / 1000);
      const expires = uploadWindowEnd(binding.expiresAt, clock.now());
      if (expires - nowSeconds > maxPresignSeconds) throw new Error('An S3 upload window is at most 7 days');
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: 'application/pdf',
        ServerSideEncryption: 'AES256',
        Metadata: { 'analysis-id': binding.analysisId },
      });
      const url = await getSignedUrl(client, command, {
        signingDate: new Date(nowSeconds * 1000),
        expiresIn: expires - nowSeconds,
        // The presigner leaves Content-Type unsigned and moves x-amz-meta-* into the query unless told.
        signableHeaders: new Set(signedHeaders),
        unhoistableHeaders: new Set(signedHeaders),
      });
      return {
        url,
        headers: { 'Content-Type': 'application/pdf', 'x-amz-server-side-encryption': 'AES256', 'x-amz-meta-analysis-id': binding.analysisId },
        expiresAt: new Date(expires * 1000),
      };
    },

    async stat(key) {
      assertStorageKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable(error);
      }
    },

    async read(key) {
      assertStorageKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable(error);
      }
    },

    async delete(key) {
      assertStorageKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isMissing(error)) return;
        throw unavailable(error);
      }
    },
  };
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');
}

/**
 * S3 unreachable or failing on its side: 503 with Retry-After to an API caller, a retry to a job.
 * Anything else S3 answers (403 from a bucket policy, a missing bucket) is a configuration fault: thrown as is.
 */
function unavailable(error: unknown): unknown {
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  if (status !== undefined && status < 500) return error;
  return storageUnavailable(error);
}
