// The S3 back-end against a local S3 (s3rver) behind a SigV4-checking gate (sigv4-gate.ts: s3rver does
// not check signatures): the shared contract over real HTTP; what the presigned URL signs and where;
// the metadata that reaches the bucket; the README's CORS rule; an unreachable S3.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { AppError } from '../../src/platform/errors.ts';
import { createS3Storage, type S3DocumentStorage } from '../../src/providers/storage/s3-storage.ts';
import { storageContract } from './storage-contract.ts';
import { startSigV4Gate, type SigV4Gate } from './sigv4-gate.ts';

const bucket = 'pvs-deeds';
// s3rver's one account.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const readme = fileURLToPath(new URL('../../src/providers/storage/README.md', import.meta.url));

let dir: string;
let s3rver: S3rver;
let s3rverUrl: string;
let gate: SigV4Gate;
let storage: S3DocumentStorage;
let counter = 0;

function storageAt(endpoint: string, clock = { now: () => new Date() }): S3DocumentStorage {
  return createS3Storage({ bucket, region: 'ap-southeast-2', endpoint, forcePathStyle: true, credentials, clock });
}

before(async () => {
  const cors = /```xml\n([\s\S]*?)```/.exec(await readFile(readme, 'utf8'))?.[1];
  assert.ok(cors, 'the README gives the bucket CORS rule as an xml block');
  dir = await mkdtemp(path.join(os.tmpdir(), 'pvs-s3rver-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [cors] }] });
  const { port } = await s3rver.run();
  s3rverUrl = `http://127.0.0.1:${port}`;
  gate = await startSigV4Gate({ target: s3rverUrl, secretAccessKey: credentials.secretAccessKey });
  storage = storageAt(gate.url);
});
after(async () => {
  await gate.close();
  await s3rver.close();
  await rm(dir, { recursive: true, force: true });
});

storageContract('s3', () => ({
  storage,
  now: () => new Date(),
  async put(url, headers, body) {
    const res = await fetch(url, { method: 'PUT', headers, body });
    await res.arrayBuffer();
    return res.status;
  },
  // Signed an hour in the past: a correct signature whose window is over, so s3rver's own check refuses it.
  signExpired: (key, analysisId) => {
    const past = { now: () => new Date(Date.now() - 3600_000) };
    return storageAt(gate.url, past).signUpload(key, { analysisId, expiresAt: new Date(past.now().getTime() + 15 * 60_000) });
  },
}));

async function signed() {
  counter += 1;
  const analysisId = `dda_S3${counter}${Date.now()}`;
  const key = `deeds/${analysisId}.pdf`;
  const upload = await storage.signUpload(key, { analysisId, expiresAt: new Date(Date.now() + 15 * 60_000) });
  return { key, analysisId, upload };
}

const pdf = Buffer.from('%PDF-1.7\n% s3\n%%EOF\n');

describe('S3 presigned uploads', () => {
  it('signs Content-Type, SSE and the analysis id as headers, hoisting none into the query and presigning no checksum', async () => {
    const { analysisId, upload } = await signed();
    assert.deepEqual(upload.headers, { 'Content-Type': 'application/pdf', 'x-amz-server-side-encryption': 'AES256', 'x-amz-meta-analysis-id': analysisId });
    const query = new URL(upload.url).searchParams;
    assert.equal(query.get('X-Amz-SignedHeaders'), 'content-type;host;x-amz-meta-analysis-id;x-amz-server-side-encryption');
    assert.deepEqual([...query.keys()].filter((name) => name.toLowerCase().startsWith('x-amz-') && !name.startsWith('X-Amz-')), []);
    assert.equal(query.get('X-Amz-Expires'), String((upload.expiresAt.getTime() - Date.parse(query.get('X-Amz-Date')!.replace(/(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/, '$1-$2-$3T$4:$5:$6Z'))) / 1000));
  });

  it('puts the analysis id on the object as metadata', async () => {
    const { key, analysisId, upload } = await signed();
    assert.equal((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: pdf })).status, 200);
    const client = new S3Client({ region: 'ap-southeast-2', endpoint: s3rverUrl, forcePathStyle: true, credentials });
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    assert.equal(head.Metadata?.['analysis-id'], analysisId);
    assert.equal(head.ContentType, 'application/pdf');
    client.destroy();
  });

  it('needs the gate: s3rver alone takes a changed header, and refuses only an expired window', async () => {
    const { key, upload } = await signed();
    const direct = upload.url.replace(gate.url, s3rverUrl);
    const changed = await fetch(direct, { method: 'PUT', headers: { ...upload.headers, 'x-amz-meta-analysis-id': 'dda_SOMEONEELSE' }, body: pdf });
    assert.equal(changed.status, 200, 'if s3rver now checks SigV4 signatures, sigv4-gate.ts can go');
    await storage.delete(key);
    const refusedBefore = gate.refused;
    assert.equal((await fetch(upload.url, { method: 'PUT', headers: { ...upload.headers, 'x-amz-meta-analysis-id': 'dda_SOMEONEELSE' }, body: pdf })).status, 403);
    assert.equal(gate.refused, refusedBefore + 1, 'the gate refused it');

    const past = { now: () => new Date(Date.now() - 3600_000) };
    const late = await storageAt(gate.url, past).signUpload(key, { analysisId: 'dda_LATE', expiresAt: new Date(past.now().getTime() + 15 * 60_000) });
    const res = await fetch(late.url.replace(gate.url, s3rverUrl), { method: 'PUT', headers: late.headers, body: pdf });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Request has expired/);
  });

  it('lets a browser PUT cross-origin with the returned headers under the README’s CORS rule, and nothing else', async () => {
    const { upload } = await signed();
    const preflight = (method: string, headers: string) =>
      fetch(upload.url, { method: 'OPTIONS', headers: { origin: 'https://partner.example', 'access-control-request-method': method, 'access-control-request-headers': headers } });
    const allowed = await preflight('PUT', Object.keys(upload.headers).map((h) => h.toLowerCase()).join(','));
    assert.equal(allowed.status, 200, await allowed.text());
    assert.equal(allowed.headers.get('access-control-allow-origin'), '*');
    assert.match(String(allowed.headers.get('access-control-allow-methods')), /PUT/);
    assert.equal((await preflight('PUT', 'content-type,authorization')).status, 403);
    assert.equal((await preflight('DELETE', 'content-type')).status, 403);
    const put = await fetch(upload.url, { method: 'PUT', headers: { ...upload.headers, origin: 'https://partner.example' }, body: pdf });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('access-control-allow-origin'), '*');
  });

  it('answers SERVICE_UNAVAILABLE when S3 cannot be reached', async () => {
    const closed = storageAt('http://127.0.0.1:9');
    for (const call of [() => closed.stat('deeds/x.pdf'), () => closed.read('deeds/x.pdf'), () => closed.delete('deeds/x.pdf')]) {
      await assert.rejects(call(), (error) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE');
    }
  });
});
