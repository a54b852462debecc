// Where uploaded documents are kept: chosen from configuration here and nowhere else. The AWS SDK is
// loaded at S3's first call, not here (lazy-s3-storage.ts).
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import { createLocalStorage, type LocalDocumentStorage } from './local-storage.ts';
import { createLazyS3Storage } from './lazy-s3-storage.ts';
import type { S3DocumentStorage } from './s3-storage.ts';
import type { DocumentStorage } from './storage.ts';

/** Either back-end; `name` tells them apart (app.ts serves PUT /storage/:folder/:name only for `local`). */
export type ConfiguredStorage = LocalDocumentStorage | S3DocumentStorage;

/** Whether PVS itself takes the uploads for this storage, and so must serve PUT /storage/:folder/:name. */
export function isLocalStorage(storage: DocumentStorage): storage is LocalDocumentStorage {
  return storage.name === 'local' && typeof (storage as Partial<LocalDocumentStorage>).receive === 'function';
}

type StorageConfig = Pick<Config, 'STORAGE' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'DATA_DIR' | 'PUBLIC_BASE_URL'>;

export function createStorage(config: StorageConfig, deps: { clock: Clock; keyRing: Pick<KeyRing, 'macKeys'> }): ConfiguredStorage {
  if (config.STORAGE === 's3') {
    return createLazyS3Storage({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      // S3-compatible stores (MinIO and the like) mostly serve buckets by path, not by host name.
      forcePathStyle: config.S3_ENDPOINT !== undefined,
      clock: deps.clock,
    });
  }
  return createLocalStorage({
    dir: path.join(config.DATA_DIR, 'uploads'),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    signingKeys: deps.keyRing.macKeys('storage-uploads'),
    clock: deps.clock,
  });
}
