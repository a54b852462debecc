// The local back-end and its PUT /storage/:folder/:name endpoint: the shared contract over real HTTP; then what a
// partner's developer sees when an upload is refused (problem+json naming the part that differs); the
// size limit on a streamed body, enforced without reading it all; atomic replacement; CORS.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createLocalStorage, maxUploadBytes } from '../../src/providers/storage/local-storage.ts';
import type { SignedUpload } from '../../src/providers/storage/storage.ts';
import { storageContract } from './storage-contract.ts';
import { createUploadApp, publicBaseUrl, type UploadApp } from './upload-app.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let u: UploadApp;
let origin: string;
let counter = 0;

before(async () => {
  u = await createUploadApp({ clock });
  origin = await u.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => u.close());

storageContract('local', () => ({
  storage: u.storage,
  now: () => clock.now(),
  async put(url, headers, body) {
    const res = await fetch(url.replace(publicBaseUrl, origin), { method: 'PUT', headers, body });
    await res.arrayBuffer();
    return res.status;
  },
  async signExpired(key, analysisId) {
    const upload = await u.storage.signUpload(key, { analysisId, expiresAt: new Date(clock.now().getTime() + 60_000) });
    clock.advance(60_000);
    return upload;
  },
}));

async function signed() {
  counter += 1;
  const analysisId = `dda_LOCAL${counter}`;
  const key = `deeds/${analysisId}.pdf`;
  const upload = await u.storage.signUpload(key, { analysisId, expiresAt: new Date(clock.now().getTime() + 15 * 60_000) });
  return { key, analysisId, upload, path: pathAndQuery(upload) };
}

function pathAndQuery(upload: SignedUpload): string {
  const url = new URL(upload.url);
  return url.pathname + url.search;
}

const pdf = (label: string) => Buffer.from(`%PDF-1.7\n% ${label}\n%%EOF\n`);

function put(url: string, headers: Record<string, string>, payload: Buffer = pdf('body')) {
  return u.app.inject({ method: 'PUT', url, headers, payload });
}

const incoming = () => readdir(path.join(u.dir, '.incoming')).catch(() => [] as string[]);

describe('PUT /storage/:folder/:name: refusals a developer can act on', () => {
  it('answers 200 with no body and a CORS header when the upload is as signed', async () => {
    const { key, upload, path: url } = await signed();
    const res = await put(url, upload.headers, pdf('stored'));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.deepEqual(await u.storage.read(key), pdf('stored'));
  });

  it('answers 403 FORBIDDEN naming the part that differs, without echoing the signature', async () => {
    const { key, upload, path: url } = await signed();
    const signature = new URL(upload.url).searchParams.get('signature')!;
    const withQuery = (change: (q: URLSearchParams) => void, pathname = new URL(upload.url).pathname) => {
      const q = new URL(upload.url).searchParams;
      change(q);
      return `${pathname}?${q.toString()}`;
    };
    const cases: Array<[string, string, Record<string, string>, string, RegExp]> = [
      ['Content-Type text/plain', url, { ...upload.headers, 'Content-Type': 'text/plain' }, 'header:Content-Type', /Content-Type must be exactly application\/pdf/],
      ['Content-Type application/json', url, { ...upload.headers, 'Content-Type': 'application/json' }, 'header:Content-Type', /Content-Type must be exactly application\/pdf/],
      ['Content-Type multipart/form-data', url, { ...upload.headers, 'Content-Type': 'multipart/form-data; boundary=x' }, 'header:Content-Type', /Content-Type/],
      ['Content-Type with a parameter', url, { ...upload.headers, 'Content-Type': 'application/pdf; charset=binary' }, 'header:Content-Type', /Content-Type/],
      ['another upload id', url, { ...upload.headers, 'x-pvs-upload-id': 'dda_SOMEONEELSE' }, 'header:x-pvs-upload-id', /differs/],
      ['no upload id', url, { 'Content-Type': 'application/pdf' }, 'header:x-pvs-upload-id', /missing/],
      ['a changed signature', withQuery((q) => q.set('signature', `${signature.slice(0, -2)}AA`)), upload.headers, 'query:signature', /signature does not match/],
      ['another key', withQuery(() => {}, '/storage/deeds/dda_OTHER.pdf'), upload.headers, 'query:signature', /signature does not match/],
      ['a later expiry', withQuery((q) => q.set('expires', String(Number(q.get('expires')) + 3600))), upload.headers, 'query:signature', /signature does not match/],
      ['another upload id in the URL and header', withQuery((q) => q.set('upload', 'dda_OTHER')), { ...upload.headers, 'x-pvs-upload-id': 'dda_OTHER' }, 'query:signature', /signature does not match/],
      ['a parameter added', withQuery((q) => q.set('extra', '1')), upload.headers, 'query:signature', /exactly upload, expires and signature/],
      ['no signature', withQuery((q) => q.delete('signature')), upload.headers, 'query:signature', /exactly upload, expires and signature/],
    ];
    for (const [what, target, headers, pointer, detail] of cases) {
      const res = await put(target, headers);
      assert.equal(res.statusCode, 403, `${what}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, what);
      assert.equal(res.headers['access-control-allow-origin'], '*', what);
      const body = res.json<{ code: string; detail: string; errors: Array<{ pointer: string }> }>();
      assert.equal(body.code, 'FORBIDDEN', what);
      assert.equal(body.errors[0]!.pointer, pointer, what);
      assert.match(body.detail, detail, what);
      assert.ok(!res.body.includes(signature) && !res.body.includes(signature.slice(0, 20)), `${what} echoes the signature`);
    }
    assert.equal(await u.storage.stat(key), null);
    assert.equal(await u.storage.stat('deeds/dda_OTHER.pdf'), null);
  });

  it('answers 403 with the time once the URL has expired, and not a moment before', async () => {
    const { key, upload, path: url } = await signed();
    clock.set(new Date(upload.expiresAt.getTime() - 1));
    assert.equal((await put(url, upload.headers)).statusCode, 200);
    clock.set(upload.expiresAt);
    const res = await put(url, upload.headers, pdf('late'));
    assert.equal(res.statusCode, 403);
    assert.equal(res.json<{ errors: Array<{ pointer: string }> }>().errors[0]!.pointer, 'query:expires');
    assert.match(res.json<{ detail: string }>().detail, new RegExp(`expired at ${upload.expiresAt.toISOString()}`));
    assert.deepEqual(await u.storage.read(key), pdf('body'));
  });

  it('refuses paths that climb out of the storage directory with 403, writing nothing', async () => {
    const { upload } = await signed();
    const query = new URL(upload.url).search;
    for (const target of ['/storage/../escape.pdf', '/storage/deeds/%2e%2e/%2e%2e/escape.pdf', '/storage/deeds%2F..%2F..%2Fescape.pdf', '/storage/%2Fetc%2Fescape.pdf', '/storage/deeds/.hidden']) {
      const res = await put(`${target}${query}`, upload.headers);
      assert.ok([403, 404].includes(res.statusCode), `${target}: ${res.statusCode}`);
    }
    assert.equal(existsSync(path.join(u.dir, '..', 'escape.pdf')), false);
    assert.equal(existsSync(path.join(u.dir, 'escape.pdf')), false);
  });

  it('answers 400 to an empty body', async () => {
    const { key, upload, path: url } = await signed();
    const res = await put(url, upload.headers, Buffer.alloc(0));
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json<{ detail: string }>().detail, /body is empty/);
    assert.equal(await u.storage.stat(key), null);
  });

  it('answers a CORS preflight for the returned headers', async () => {
    const { path: url } = await signed();
    const res = await u.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://partner.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type,x-pvs-upload-id' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-methods'], 'PUT');
    assert.deepEqual(String(res.headers['access-control-allow-headers']).split(/,\s*/).sort(), ['content-type', 'x-pvs-upload-id']);
    assert.ok(Number(res.headers['access-control-max-age']) > 0);
  });

  it('takes raw PDFs only in its own scope: the rest of PVS still refuses them and still reads JSON', async () => {
    const refused = await u.app.inject({ method: 'POST', url: '/v1/echo', headers: { 'content-type': 'application/pdf' }, payload: pdf('elsewhere') });
    assert.equal(refused.statusCode, 415, refused.body);
    const json = await u.app.inject({ method: 'POST', url: '/v1/echo', payload: { text: 'still JSON' } });
    assert.deepEqual(json.json(), { text: 'still JSON' });
  });

  it('logs neither the URL’s signature nor the document', async () => {
    const { upload, path: url } = await signed();
    const marker = 'DOCUMENT-CONTENT-MARKER-7f3a';
    assert.equal((await put(url, upload.headers, pdf(marker))).statusCode, 200);
    assert.equal((await put(url, { ...upload.headers, 'Content-Type': 'text/plain' }, pdf(marker))).statusCode, 403);
    const logs = u.logText();
    assert.match(logs, /"route":"\/storage\/:folder\/:name"/, 'the access log saw the uploads');
    assert.ok(!logs.includes(new URL(upload.url).searchParams.get('signature')!));
    assert.ok(!logs.includes(marker));
  });
});

describe('PUT /storage/:folder/:name: the size limit, over real HTTP', () => {
  const stream = (total: number, counted: { sent: number }) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const n = Math.min(64 * 1024, total - counted.sent);
        if (n <= 0) return controller.close();
        counted.sent += n;
        controller.enqueue(new Uint8Array(n).fill(0x25));
      },
    });
  const send = async (upload: SignedUpload, total: number, counted = { sent: 0 }) => {
    const res = await fetch(upload.url.replace(publicBaseUrl, origin), { method: 'PUT', headers: upload.headers, body: stream(total, counted), duplex: 'half' } as RequestInit);
    return { status: res.status, body: await res.text(), connection: res.headers.get('connection') };
  };

  it('takes a streamed body of exactly 26 MiB', async () => {
    const { key, upload } = await signed();
    assert.equal((await send(upload, maxUploadBytes)).status, 200);
    assert.deepEqual(await u.storage.stat(key), { size: maxUploadBytes });
    await u.storage.delete(key);
  });

  it('answers 413 to 26 MiB + 1 streamed without a Content-Length, keeping neither it nor a temporary file, nor losing the earlier upload', async () => {
    const { key, upload } = await signed();
    assert.equal((await send(upload, 1000)).status, 200);
    const res = await send(upload, maxUploadBytes + 1);
    assert.equal(res.status, 413, res.body);
    assert.equal(JSON.parse(res.body).code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(await u.storage.stat(key), { size: 1000 });
    assert.deepEqual(await incoming(), []);
  });

  it('stops reading a body as soon as it passes the limit, and closes the connection', async () => {
    const { key, upload } = await signed();
    const total = 256 * 1024 * 1024;
    const counted = { sent: 0 };
    const res = await send(upload, total, counted);
    assert.equal(res.status, 413);
    assert.equal(res.connection, 'close');
    assert.ok(counted.sent < maxUploadBytes + 64 * 1024 * 1024, `the client got to send ${counted.sent} bytes`);
    assert.equal(await u.storage.stat(key), null);
    assert.deepEqual(await incoming(), []);
  });

  it('answers 413 to a Content-Length over the limit before any of the body is sent', async () => {
    const { upload, path: url } = await signed();
    const { port } = new URL(origin);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      const headers = Object.entries(upload.headers).map(([n, v]) => `${n}: ${v}\r\n`).join('');
      socket.write(`PUT ${url} HTTP/1.1\r\nHost: pvs.test\r\n${headers}Content-Length: ${maxUploadBytes + 1}\r\n\r\n`);
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /connection: close/i);
    assert.match(answer, /PAYLOAD_TOO_LARGE/);
  });

  it('leaves nothing of a body cut short, and keeps the earlier upload', async () => {
    const { key, upload, path: url } = await signed();
    assert.equal((await send(upload, 500)).status, 200);
    const { port } = new URL(origin);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const headers = Object.entries(upload.headers).map(([n, v]) => `${n}: ${v}\r\n`).join('');
    socket.write(`PUT ${url} HTTP/1.1\r\nHost: pvs.test\r\n${headers}Content-Length: 200000\r\n\r\n`);
    socket.write(Buffer.alloc(100_000, 0x25));
    for (let i = 0; i < 200 && (await incoming()).length === 0; i++) await sleep(10);
    assert.equal((await incoming()).length, 1, 'the upload reached its temporary file');
    socket.destroy();
    for (let i = 0; i < 200 && (await incoming()).length > 0; i++) await sleep(10);
    assert.deepEqual(await incoming(), []);
    assert.deepEqual(await u.storage.stat(key), { size: 500 });
  });
});

describe('local storage on its own', () => {
  it('stops pulling from a body once it passes the limit', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pvs-storage-unit-'));
    const storage = createLocalStorage({ dir, publicBaseUrl, signingKeys: { current: Buffer.alloc(32, 1), all: [Buffer.alloc(32, 1)] }, clock, maxUploadBytes: 10_000 });
    let pulled = 0;
    const body = new Readable({
      highWaterMark: 1024,
      read() {
        pulled += 1;
        this.push(pulled > 1000 ? null : Buffer.alloc(1024));
      },
    });
    assert.deepEqual(await storage.receive('deeds/big.pdf', body), { ok: false, reason: 'TOO_LARGE' });
    assert.ok(pulled < 30, `pulled ${pulled} chunks`);
    assert.equal(await storage.stat('deeds/big.pdf'), null);
    assert.deepEqual(await readdir(path.join(dir, '.incoming')), []);
    await rm(dir, { recursive: true, force: true });
  });

  it('removes a temporary file a crash left behind an hour ago, and only that', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pvs-storage-unit-'));
    const storage = createLocalStorage({ dir, publicBaseUrl, signingKeys: { current: Buffer.alloc(32, 1), all: [Buffer.alloc(32, 1)] }, clock });
    await mkdir(path.join(dir, '.incoming'));
    const old = path.join(dir, '.incoming', 'old.part');
    const recent = path.join(dir, '.incoming', 'recent.part');
    await writeFile(old, 'half');
    await writeFile(recent, 'half');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    assert.deepEqual(await storage.receive('deeds/x.pdf', Readable.from([pdf('x')])), { ok: true, size: pdf('x').length });
    assert.deepEqual((await readdir(path.join(dir, '.incoming'))).sort(), ['recent.part']);
    await rm(dir, { recursive: true, force: true });
  });
});
