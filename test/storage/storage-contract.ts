// The DocumentStorage contract, run against each back-end as a partner's browser meets it: a real HTTP
// PUT to the signed URL with the returned headers, then stat, read and delete as the deed module uses
// them. Any difference in the URL or a header is 403 and stores nothing; a later upload replaces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DocumentStorage, SignedUpload } from '../../src/providers/storage/storage.ts';

export interface ContractHarness {
  storage: DocumentStorage;
  /** The storage's own clock. */
  now(): Date;
  /** PUTs `body` to `url` over HTTP with exactly `headers`; the status answered. */
  put(url: string, headers: Record<string, string>, body: Buffer): Promise<number>;
  /** A signed upload whose window is over by the time it is used. */
  signExpired(key: string, analysisId: string): Promise<SignedUpload>;
}

let counter = 0;

function fresh() {
  counter += 1;
  const analysisId = `dda_CONTRACT${process.pid}${counter}${Date.now()}`;
  return { key: `deeds/${analysisId}.pdf`, analysisId };
}

function pdfBytes(label: string): Buffer {
  return Buffer.from(`%PDF-1.7\n% ${label}\n${'x'.repeat(1000)}\n%%EOF\n`);
}

/** Another value for a header, as a careless client would send. */
function changed(name: string, value: string): string {
  return name.toLowerCase() === 'content-type' ? 'application/octet-stream' : `${value}X`;
}

export function storageContract(backEnd: string, harness: () => ContractHarness): void {
  describe(`${backEnd} storage: the DocumentStorage contract`, () => {
    async function signed() {
      const { storage, now } = harness();
      const { key, analysisId } = fresh();
      const upload = await storage.signUpload(key, { analysisId, expiresAt: new Date(now().getTime() + 15 * 60_000) });
      return { key, analysisId, upload };
    }

    it('signs a PUT asking for Content-Type application/pdf and a header naming the analysis, until expiresAt', async () => {
      const { now, storage } = harness();
      const { key, analysisId } = fresh();
      const expiresAt = new Date(Math.floor(now().getTime() / 1000) * 1000 + 15 * 60_000);
      const upload = await storage.signUpload(key, { analysisId, expiresAt });
      assert.equal(upload.headers['Content-Type'], 'application/pdf');
      assert.ok(Object.values(upload.headers).includes(analysisId), JSON.stringify(upload.headers));
      assert.equal(upload.expiresAt.toISOString(), expiresAt.toISOString());
      assert.match(upload.url, /^https?:\/\//);
    });

    it('stores the body PUT with exactly the returned headers; stat gives its size and read its bytes', async () => {
      const { key, upload } = await signed();
      const bytes = pdfBytes('first');
      const status = await harness().put(upload.url, upload.headers, bytes);
      assert.ok(status >= 200 && status < 300, `status ${status}`);
      assert.deepEqual(await harness().storage.stat(key), { size: bytes.length });
      assert.deepEqual(await harness().storage.read(key), bytes);
    });

    it('replaces the object when the same URL is used again', async () => {
      const { key, upload } = await signed();
      assert.ok((await harness().put(upload.url, upload.headers, pdfBytes('first'))) < 300);
      const second = pdfBytes('second, and longer than the first');
      assert.ok((await harness().put(upload.url, upload.headers, second)) < 300);
      assert.deepEqual(await harness().storage.read(key), second);
    });

    it('refuses with 403 every changed or missing signed header, storing nothing', async () => {
      const { key, upload } = await signed();
      for (const [name, value] of Object.entries(upload.headers)) {
        const others = Object.fromEntries(Object.entries(upload.headers).filter(([n]) => n !== name));
        assert.equal(await harness().put(upload.url, { ...others, [name]: changed(name, value) }, pdfBytes('changed')), 403, `${name} changed`);
        assert.equal(await harness().put(upload.url, others, pdfBytes('missing')), 403, `${name} missing`);
      }
      assert.equal(await harness().storage.stat(key), null);
    });

    it('refuses with 403 a URL moved to another key or with a changed signature', async () => {
      const { key, upload } = await signed();
      const other = fresh().key;
      const moved = new URL(upload.url);
      assert.ok(moved.pathname.endsWith(key), moved.pathname);
      moved.pathname = moved.pathname.slice(0, -key.length) + other;
      assert.equal(await harness().put(moved.toString(), upload.headers, pdfBytes('moved')), 403);

      const forged = new URL(upload.url);
      const name = [...forged.searchParams.keys()].find((n) => /signature/i.test(n))!;
      const signature = forged.searchParams.get(name)!;
      forged.searchParams.set(name, `${signature.slice(0, -1)}${signature.endsWith('a') ? 'b' : 'a'}`);
      assert.equal(await harness().put(forged.toString(), upload.headers, pdfBytes('forged')), 403);

      assert.equal(await harness().storage.stat(key), null);
      assert.equal(await harness().storage.stat(other), null);
    });

    it('refuses with 403 a URL whose window is over', async () => {
      const { key, analysisId } = fresh();
      const upload = await harness().signExpired(key, analysisId);
      assert.equal(await harness().put(upload.url, upload.headers, pdfBytes('late')), 403);
      assert.equal(await harness().storage.stat(key), null);
    });

    it('keeps the earlier upload when a later one is refused', async () => {
      const { key, upload } = await signed();
      const first = pdfBytes('first');
      assert.ok((await harness().put(upload.url, upload.headers, first)) < 300);
      assert.equal(await harness().put(upload.url, { ...upload.headers, 'Content-Type': 'text/plain' }, pdfBytes('refused')), 403);
      assert.deepEqual(await harness().storage.read(key), first);
    });

    it('deletes; deleting again, and stat and read of a missing object, are fine', async () => {
      const { key, upload } = await signed();
      assert.ok((await harness().put(upload.url, upload.headers, pdfBytes('doomed'))) < 300);
      await harness().storage.delete(key);
      assert.equal(await harness().storage.stat(key), null);
      assert.equal(await harness().storage.read(key), null);
      await harness().storage.delete(key);
      assert.equal(await harness().storage.stat('deeds/never-uploaded.pdf'), null);
    });

    it('refuses keys that could leave the storage or hide in it, in every operation', async () => {
      const { storage, now } = harness();
      const expiresAt = new Date(now().getTime() + 60_000);
      for (const key of ['../escape.pdf', 'deeds/../../escape.pdf', '/etc/passwd', 'deeds//x.pdf', 'deeds/.hidden', 'deeds/x.pdf/', 'deeds/sub/x.pdf', 'deeds.x/y.pdf', '', 'deeds\\..\\x.pdf', 'deeds/%2e%2e/x', 'deeds/x y.pdf', `deeds/${'a'.repeat(300)}`]) {
        await assert.rejects(storage.signUpload(key, { analysisId: 'dda_X', expiresAt }), /Not a storage key/, key);
        await assert.rejects(storage.stat(key), /Not a storage key/, key);
        await assert.rejects(storage.read(key), /Not a storage key/, key);
        await assert.rejects(storage.delete(key), /Not a storage key/, key);
      }
      await assert.rejects(storage.signUpload('deeds/x.pdf', { analysisId: 'dda_X\r\nx-evil: 1', expiresAt }), /Not an analysis id/);
      await assert.rejects(storage.signUpload('deeds/x.pdf', { analysisId: 'dda_X', expiresAt: new Date(now().getTime() - 1000) }), /must end in the future/);
    });
  });
}
