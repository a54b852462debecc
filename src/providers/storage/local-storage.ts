// The local back-end: each object is a file under `dir` (DATA_DIR/uploads), its path the key's segments.
// PVS serves the signed PUT itself (storage.routes.ts), which hands the body to `receive`.
//
// Invariants: an object appears whole or not at all (the body goes to `dir/.incoming/<random>.part` and
// is renamed over the object only once all of it arrived within the limit, so a second upload replaces
// the first atomically and a cut-short or oversized one leaves nothing); the body is streamed, never
// held in memory; nothing here logs an object's bytes.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../../platform/clock.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { DocumentStorage, SignedUpload } from './storage.ts';
import { assertStorageKey } from './storage-keys.ts';
import { createUploadSigner, uploadContentType, uploadIdHeader, type UploadAsReceived, type UploadCheck } from './upload-signatures.ts';

/** The most a PUT may carry: 26 MiB. `start` then refuses anything over 25 MB (26,214,400 bytes). */
export const maxUploadBytes = 26 * 1024 * 1024;

/** Where half-received bodies wait; a dot-name no key can have (storage-keys.ts). */
const incomingDirName = '.incoming';
/** A part file this old belongs to no live request (requests time out after 2 minutes): a crash left it. */
const stalePartMs = 60 * 60 * 1000;
const sweepEveryMs = 10 * 60 * 1000;

export type ReceiveOutcome = { ok: true; size: number } | { ok: false; reason: 'TOO_LARGE' | 'CUT_SHORT' };

export interface LocalDocumentStorage extends DocumentStorage {
  readonly name: 'local';
  readonly maxUploadBytes: number;
  /** Whether a PUT's path and query are a URL `signUpload` signed, unchanged and in time. */
  checkUploadUrl(request: Pick<UploadAsReceived, 'key' | 'query'>): UploadCheck;
  /** Whether the PUT, its URL accepted, carries exactly the headers that URL was signed with. */
  checkUploadHeaders(request: Pick<UploadAsReceived, 'query' | 'headers'>): UploadCheck;
  /** Streams `body` into the object for `key`, replacing it only once the whole body has arrived. */
  receive(key: string, body: Readable): Promise<ReceiveOutcome>;
}

export interface LocalStorageOptions {
  /** The storage directory (DATA_DIR/uploads); created when first written to. */
  dir: string;
  /** PUBLIC_BASE_URL: signed URLs are `${publicBaseUrl}/storage/${key}?…`. */
  publicBaseUrl: string;
  /** The HMAC keys for upload URLs (the key ring's for this purpose alone: signs with the current, accepts any). */
  signingKeys: { current: Buffer; all: readonly Buffer[] };
  clock: Clock;
  maxUploadBytes?: number;
}

export function createLocalStorage(options: LocalStorageOptions): LocalDocumentStorage {
  const root = path.resolve(options.dir);
  const incoming = path.join(root, incomingDirName);
  const limit = options.maxUploadBytes ?? maxUploadBytes;
  const signer = createUploadSigner({ keys: options.signingKeys, clock: options.clock });
  let lastSweep = 0;

  function fileOf(key: string): string {
    assertStorageKey(key);
    const file = path.join(root, ...key.split('/'));
    // The key rules already make this impossible; a second fence costs nothing.
    if (!file.startsWith(root + path.sep)) throw new Error('A storage key resolved outside the storage directory');
    return file;
  }

  // Compares file times with the system's time, not the injected clock: both come from the same OS.
  async function sweepStaleParts(): Promise<void> {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    for (const name of await readdir(incoming).catch(() => [] as string[])) {
      const part = path.join(incoming, name);
      const info = await stat(part).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > stalePartMs) await rm(part, { force: true });
    }
  }

  return {
    name: 'local',
    maxUploadBytes: limit,

    async signUpload(key, binding): Promise<SignedUpload> {
      const signed = signer.sign(key, binding.analysisId, binding.expiresAt);
      return {
        url: `${options.publicBaseUrl}/storage/${key}?${signed.query}`,
        headers: { 'Content-Type': uploadContentType, [uploadIdHeader]: binding.analysisId },
        expiresAt: signed.expiresAt,
      };
    },

    checkUploadUrl: (request) => signer.checkUrl(request),
    checkUploadHeaders: (request) => signer.checkHeaders(request),

    async receive(key, body) {
      const target = fileOf(key);
      await mkdir(incoming, { recursive: true, mode: 0o700 });
      await sweepStaleParts();
      const part = path.join(incoming, `${randomToken(12)}.part`);
      let renamed = false;
      try {
        const outcome = await writeWithin(body, part, limit);
        if (!outcome.ok) return outcome;
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await rename(part, target);
        renamed = true;
        return outcome;
      } finally {
        if (!renamed) await rm(part, { force: true });
      }
    },

    async stat(key) {
      const info = await stat(fileOf(key)).catch(ifMissing(undefined));
      return info?.isFile() ? { size: info.size } : null;
    },

    async read(key) {
      return readFile(fileOf(key)).catch(ifMissing(null));
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

function ifMissing<T>(value: T) {
  return (error: NodeJS.ErrnoException): T => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return value;
    throw error;
  };
}

/**
 * Copies `source` into a new file at `file` until it ends, stopping as soon as more than `limit` bytes
 * have come. The source is left paused, not destroyed, so the route can still answer on its connection.
 */
function writeWithin(source: Readable, file: string, limit: number): Promise<ReceiveOutcome> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
    let size = 0;
    let outcome: ReceiveOutcome | undefined;
    let failure: Error | undefined;

    const detach = () => {
      source.off('data', onData).off('end', onEnd).off('error', onCutShort).off('close', onClose);
      source.pause();
    };
    const settle = (result: ReceiveOutcome) => {
      if (outcome || failure) return;
      outcome = result;
      detach();
      if (result.ok) out.end();
      else out.destroy();
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size > limit) return settle({ ok: false, reason: 'TOO_LARGE' });
      if (!out.write(chunk)) {
        source.pause();
        out.once('drain', () => outcome || failure || source.resume());
      }
    }
    function onEnd() {
      settle({ ok: true, size });
    }
    function onCutShort() {
      settle({ ok: false, reason: 'CUT_SHORT' });
    }
    function onClose() {
      if (!source.readableEnded) onCutShort();
    }

    // A write that fails (a full disk) fails the upload, even after the body has ended; once the
    // upload is refused, the file is being thrown away and its errors do not matter.
    out.on('error', (error) => {
      if (failure || outcome?.ok === false) return;
      failure = error;
      if (!outcome) detach();
    });
    out.on('close', () => (failure ? reject(failure) : resolve(outcome ?? { ok: false, reason: 'CUT_SHORT' })));
    source.on('data', onData).on('end', onEnd).on('error', onCutShort).on('close', onClose);
    source.resume();
  });
}
