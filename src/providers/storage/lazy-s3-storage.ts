// The S3 back-end as the service holds it: the AWS SDK (and s3-storage.ts with it) is loaded at the first
// call, once, not when the service starts (platform/lazy.ts); the client is made from that load.
//
// A failed load is storage being unavailable, answered as an S3 outage is: storageUnavailable (503 with
// Retry-After to an API caller, a retry to a job), the load's error as its cause. The next call loads again.
import { lazy } from '../../platform/lazy.ts';
import type { createS3Storage, S3DocumentStorage, S3StorageOptions } from './s3-storage.ts';
import { storageUnavailable, type DocumentStorage } from './storage.ts';

/** What the storage needs of s3-storage.ts, the module that loads the AWS SDK. */
type S3StorageModule = { createS3Storage: typeof createS3Storage };

/** The SDK's packages by name first, then our back-end on them (platform/lazy.ts says why). */
async function loadS3Storage(): Promise<S3StorageModule> {
  await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
  return import('./s3-storage.ts');
}

export function createLazyS3Storage(options: S3StorageOptions, load: () => Promise<S3StorageModule> = loadS3Storage): S3DocumentStorage {
  const loadModule = lazy(load);
  // Made once, from the first load that succeeds (synchronously: two callers cannot both make one).
  let client: DocumentStorage | undefined;

  async function storage(): Promise<DocumentStorage> {
    let module: S3StorageModule;
    try {
      module = await loadModule();
    } catch (error) {
      throw storageUnavailable(error);
    }
    client ??= module.createS3Storage(options);
    return client;
  }

  return {
    name: 's3',
    signUpload: async (key, binding) => (await storage()).signUpload(key, binding),
    stat: async (key) => (await storage()).stat(key),
    read: async (key) => (await storage()).read(key),
    delete: async (key) => (await storage()).delete(key),
  };
}
