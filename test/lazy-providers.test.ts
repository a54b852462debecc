// Heavy packages load on first use, once, behind the provider that needs them (docs/architecture.md, "What a
// process loads"; src/platform/lazy.ts):
//   - the service starts and answers partner calls without loading pdfjs, tesseract.js, canvas, sharp,
//     pdfkit, the AWS SDK or Stripe, even with Stripe and S3 configured (a child process under
//     record-loads.mjs);
//   - concurrent first uses share one load and make one client;
//   - a provider whose package cannot be loaded answers exactly as its outage does, and loads again at the
//     next use (a child process under fail-loads.mjs, which makes packages fail as a missing one does);
//   - compiled, the deed page reader's child starts without tsx.
import { backend } from './helpers/database.ts';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { judgeMrz } from '../src/modules/verifications/mrz/mrz-check.ts';
import { createLazyMrzReader, createMrzEvidence } from '../src/modules/verifications/mrz/mrz-evidence.ts';
import type { MrzReader } from '../src/modules/verifications/mrz/mrz-reader.ts';
import { lazy } from '../src/platform/lazy.ts';
import type { PaymentGateway } from '../src/providers/gateway/gateway.ts';
import { createLazyStripeGateway } from '../src/providers/gateway/lazy-stripe-gateway.ts';
import { createLazyS3Storage } from '../src/providers/storage/lazy-s3-storage.ts';
import type { DocumentStorage } from '../src/providers/storage/storage.ts';
import { heavyPackages, tracingPackages, loadedPackages, matchingPackages, readLoads, recordLoadsHook, recordLoadsVariable } from './helpers/module-loads.ts';
import { tinyPdf } from './helpers/tiny-pdf.ts';

// Run once, in the PostgreSQL pass (where it is quicker): its children run on their own embedded database,
// whichever back-end the suite is on.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const runScript = fileURLToPath(new URL('./helpers/lazy-providers-run.ts', import.meta.url));
const failLoadsHook = fileURLToPath(new URL('./helpers/fail-loads.mjs', import.meta.url));
// Inside the checkout (test-output/ is ignored), so that compiled files find node_modules.
mkdirSync(path.join(root, 'test-output'), { recursive: true });
// Its real path: loaded modules are recorded by theirs, and a compiled run's test-output/ is a link.
const scratch = realpathSync(mkdtempSync(path.join(root, 'test-output', 'lazy-providers-')));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Environment for a child that runs the service: no AWS credential lookups beyond the environment. */
const childEnv = { ...process.env, LOG_LEVEL: 'info', AWS_ACCESS_KEY_ID: 'AKIDLAZYPROVIDERS', AWS_SECRET_ACCESS_KEY: 'lazy-providers-secret', AWS_EC2_METADATA_DISABLED: 'true' };

interface RunOutput<T> {
  seen: T;
  logs: Array<Record<string, unknown>>;
}

async function runService<T>(scenario: 'start' | 'failing', hook: string[], env: Record<string, string>): Promise<RunOutput<T>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', ...hook, runScript, scenario], { cwd: root, env: { ...childEnv, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => assert.fail(`the ${scenario} run failed: ${error.message}\n${error.stderr ?? ''}`),
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as RunOutput<T>;
}

describe('what the service loads', { skip: pgliteSkip }, () => {
  it('the recorder sees ES module imports and CommonJS requires', async () => {
    const file = path.join(scratch, 'control.txt');
    const script = "await import('pdfkit'); (await import('node:module')).createRequire(import.meta.url)('sharp');";
    await run(process.execPath, ['--import', recordLoadsHook, '--input-type=module', '-e', script], { cwd: root, env: { ...process.env, [recordLoadsVariable]: file } });
    const loaded = loadedPackages(readLoads(file));
    assert.deepEqual(matchingPackages(loaded, ['pdfkit', 'sharp']), ['pdfkit', 'sharp']);
  });

  it('starts, is ready and answers partner calls without any heavy package or tracing SDK, with Stripe and S3 configured', async () => {
    const file = path.join(scratch, 'start.txt');
    const { seen } = await runService<Record<string, number>>('start', ['--import', recordLoadsHook], { [recordLoadsVariable]: file });
    assert.deepEqual(seen, { ready: 200, contact: 201, verification: 201, payment: 201 });
    const urls = readLoads(file);
    const loaded = loadedPackages(urls);
    // The recording is of the service: its composition root, its HTTP server and its database were loaded.
    assert.ok(urls.some((url) => url.endsWith('/src/services.ts')) && loaded.has('fastify') && loaded.has('@electric-sql/pglite'), 'the service was recorded');
    assert.deepEqual(matchingPackages(loaded, heavyPackages), [], 'no heavy package was loaded');
    // Tracing is off unless an OTLP endpoint is configured, and off it costs no SDK.
    assert.deepEqual(matchingPackages(loaded, tracingPackages), [], 'no OpenTelemetry SDK package was loaded');
  });
});

describe('a heavy provider loads at its first use, once', { skip: pgliteSkip }, () => {
  /** A loader that counts its calls and settles when told. */
  function gatedLoader<T>(value: () => T) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counted = { loads: 0, release };
    const load = async () => {
      counted.loads++;
      await gate;
      return value();
    };
    return { counted, load };
  }

  it('lazy: callers during a load share it; a failed load is forgotten, a loaded one kept', async () => {
    let loads = 0;
    let fail = true;
    const load = lazy(async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (fail) throw new Error('not installed');
      return { loaded: loads };
    });
    const failed = await Promise.allSettled([load(), load(), load()]);
    assert.deepEqual([loads, failed.map((r) => r.status)], [1, ['rejected', 'rejected', 'rejected']]);
    fail = false;
    const [a, b] = await Promise.all([load(), load()]);
    assert.equal(loads, 2, 'the failed load was tried again, once');
    assert.equal(a, b);
    assert.equal(await load(), a, 'and kept');
    assert.equal(loads, 2);
  });

  it('two passport reads at once load sharp and tesseract.js once, and make one reader', async () => {
    let readers = 0;
    const { counted, load } = gatedLoader(() => null);
    const real = import('../src/modules/verifications/mrz/mrz-reader.ts');
    const reader = createLazyMrzReader(async () => {
      await load();
      const module = await real;
      return {
        createMrzReader: (...args: Parameters<typeof module.createMrzReader>) => {
          readers++;
          return module.createMrzReader(...args);
        },
      };
    });
    const notAnImage = { contentType: 'image/png' as const, bytes: Buffer.from('not a photo of a passport') };
    const reads = Promise.all([reader.read(notAnImage), reader.read(notAnImage)]);
    counted.release();
    assert.deepEqual(await reads, [
      { found: false, reason: 'UNREADABLE_IMAGE' },
      { found: false, reason: 'UNREADABLE_IMAGE' },
    ]);
    assert.deepEqual([counted.loads, readers], [1, 1]);
    await reader.close();
    assert.deepEqual(await reader.read(notAnImage), { found: false, reason: 'READER_CLOSED' });
  });

  it('a reader closed before its first read never loads', async () => {
    let loads = 0;
    const reader = createLazyMrzReader(async () => {
      loads++;
      return import('../src/modules/verifications/mrz/mrz-reader.ts');
    });
    await reader.close();
    assert.deepEqual(await reader.read({ contentType: 'image/png', bytes: Buffer.alloc(0) }), { found: false, reason: 'READER_CLOSED' });
    assert.equal(loads, 0);
  });

  it('two gateway calls at once load Stripe’s client once and make one; the card page’s key needs no load', async () => {
    let clients = 0;
    const stub = { findCharge: async () => ({ ok: true, found: false }) } as unknown as PaymentGateway;
    const { counted, load } = gatedLoader(() => ({
      createStripeGateway: () => {
        clients++;
        return stub;
      },
    }));
    const gateway = createLazyStripeGateway({ secretKey: 'sk_test_lazy', publishableKey: 'pk_test_lazy' }, load);
    assert.deepEqual(gateway.hostedFields(), { kind: 'stripe', publishableKey: 'pk_test_lazy' });
    assert.equal(counted.loads, 0);
    const calls = Promise.all([gateway.findCharge({ idempotencyKey: 'a' }), gateway.findCharge({ idempotencyKey: 'b' })]);
    counted.release();
    assert.deepEqual(await calls, [
      { ok: true, found: false },
      { ok: true, found: false },
    ]);
    assert.deepEqual([counted.loads, clients], [1, 1]);
  });

  it('two storage calls at once load the S3 client once and make one', async () => {
    let clients = 0;
    const stub = { name: 's3', stat: async () => ({ size: 7 }) } as unknown as DocumentStorage;
    const { counted, load } = gatedLoader(() => ({
      createS3Storage: () => {
        clients++;
        return stub as never;
      },
    }));
    const storage = createLazyS3Storage({ bucket: 'pvs-deeds' }, load);
    const calls = Promise.all([storage.stat('deeds/a.pdf'), storage.stat('deeds/b.pdf')]);
    counted.release();
    assert.deepEqual(await calls, [{ size: 7 }, { size: 7 }]);
    assert.deepEqual([counted.loads, clients], [1, 1]);
  });
});

describe('a heavy provider that cannot be loaded', { skip: pgliteSkip }, () => {
  interface Answer {
    status: number;
    contentType?: string;
    retryAfter?: string;
    body: Record<string, unknown>;
  }
  type Failing = Record<'storageLoadFailed' | 'storageLoaded' | 'storageOutage' | 'gatewayLoadFailed' | 'gatewayOutage' | 'reportLoadFailed' | 'reportLoaded', Answer> & {
    inspected: Array<{ answer?: unknown; thrown?: Record<string, unknown> }>;
  };
  const failing = ['@aws-sdk/client-s3', 'stripe', 'pdfkit', 'pdfjs-dist/legacy/build/pdf.mjs'];
  let output: Promise<RunOutput<Failing>> | undefined;
  let attempts: Record<string, number> = {};

  /** Runs the service once for every test below: its first use of each provider fails to load. */
  function failingRun(): Promise<RunOutput<Failing>> {
    output ??= (async () => {
      const report = path.join(scratch, 'attempts.json');
      const result = await runService<Failing>('failing', ['--import', failLoadsHook], { FAIL_LOADS: failing.join(','), FAIL_LOADS_REPORT: report });
      attempts = JSON.parse(readFileSync(report, 'utf8')) as Record<string, number>;
      return result;
    })();
    return output;
  }

  /** An answer without what differs between any two requests. */
  const comparable = (answer: Answer) => ({ ...answer, body: { ...answer.body, requestId: undefined } });
  /** The log lines of one request, without what differs between any two. */
  const linesOf = (logs: Array<Record<string, unknown>>, answer: Answer) =>
    logs.filter((line) => line.requestId === answer.body.requestId).map(({ time: _t, requestId: _r, ms: _m, route: _route, ...line }) => line);

  it('S3: the same 503 problem and log line as S3 not answering, and the next call loads it', async () => {
    const { seen, logs } = await failingRun();
    assert.deepEqual(comparable(seen.storageLoadFailed), comparable(seen.storageOutage));
    assert.deepEqual([seen.storageLoadFailed.status, seen.storageLoadFailed.retryAfter, seen.storageLoadFailed.body.code], [503, '5', 'SERVICE_UNAVAILABLE']);
    // The same lines, each naming its own cause: the operator reads which package failed to load.
    const withoutCause = (lines: Array<Record<string, unknown>>) => lines.map(({ err: _err, ...line }) => line);
    const [loadLines, outageLines] = [linesOf(logs, seen.storageLoadFailed), linesOf(logs, seen.storageOutage)];
    assert.deepEqual(withoutCause(loadLines), withoutCause(outageLines));
    assert.deepEqual(loadLines.map((line) => line.msg), ['dependency unavailable', 'request']);
    assert.match(String((loadLines[0]!.err as { message: string }).message), /Cannot find package '@aws-sdk\/client-s3'/);
    assert.match(String((outageLines[0]!.err as { message: string }).message), /ECONNREFUSED/);
    assert.equal(seen.storageLoaded.status, 201, 'the next create loaded the SDK and signed the upload');
    assert.ok(attempts['@aws-sdk/client-s3']! >= 2, 'loaded again after the failure');
  });

  it('Stripe: the same 503 problem and log line as Stripe not answering, and the next call loads it', async () => {
    const { seen, logs } = await failingRun();
    assert.deepEqual(comparable(seen.gatewayLoadFailed), comparable(seen.gatewayOutage));
    assert.deepEqual([seen.gatewayLoadFailed.status, seen.gatewayLoadFailed.retryAfter, seen.gatewayLoadFailed.body.code], [503, '5', 'SERVICE_UNAVAILABLE']);
    assert.deepEqual(linesOf(logs, seen.gatewayLoadFailed), linesOf(logs, seen.gatewayOutage));
    assert.ok(attempts.stripe! >= 2, 'loaded again after the failure (and then found Stripe not answering)');
  });

  it('Stripe: the unavailable value names what failed to load, for the jobs that log it', async () => {
    let loads = 0;
    const gateway = createLazyStripeGateway({ secretKey: 'sk_test_lazy', publishableKey: 'pk_test_lazy' }, async () => {
      loads++;
      throw Object.assign(new Error("Cannot find package 'stripe'"), { code: 'ERR_MODULE_NOT_FOUND' });
    });
    const answer = await gateway.charge({ customerRef: 'cus_1', paymentMethodRef: 'pm_1', amount: 500, description: 'lookup', idempotencyKey: 'k' });
    assert.deepEqual(answer, { ok: false, kind: 'unavailable', message: "Stripe charge failed: the Stripe client could not be loaded (Error ERR_MODULE_NOT_FOUND: Cannot find package 'stripe')" });
    await gateway.refund({ chargeRef: 'pi_1', amount: 500, idempotencyKey: 'r' });
    assert.equal(loads, 2);
  });

  it('pdfkit: a report URL answers 503 with Retry-After, as when the identity provider is down; opened again, the PDF', async () => {
    const { seen } = await failingRun();
    assert.deepEqual([seen.reportLoadFailed.status, seen.reportLoadFailed.retryAfter, seen.reportLoadFailed.body.code], [503, '60', 'SERVICE_UNAVAILABLE']);
    assert.match(String(seen.reportLoadFailed.body.detail), /open the same URL again in a minute/);
    assert.deepEqual([seen.reportLoaded.status, seen.reportLoaded.contentType, seen.reportLoaded.body.head], [200, 'application/pdf', '%PDF-']);
    assert.ok(attempts.pdfkit! >= 2);
  });

  it('pdfjs: a deed’s check is the reader unavailable (503, Retry-After), never NOT_A_PDF; the next check loads it', async () => {
    const { seen } = await failingRun();
    const [first, second] = seen.inspected;
    assert.deepEqual(first!.thrown, {
      name: 'AppError',
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 5,
      message: 'The deed reader is unavailable; try again shortly',
      cause: "Cannot find package 'pdfjs-dist/legacy/build/pdf.mjs' (made to fail by fail-loads.mjs)",
    });
    assert.deepEqual(second!.answer, { ok: true, pageCount: 1 });
  });

  it('no answer to a partner carries the load’s error', async () => {
    const { inspected: _internal, ...answers } = (await failingRun()).seen;
    assert.doesNotMatch(JSON.stringify(answers), /fail-loads|Cannot find|ERR_MODULE_NOT_FOUND|could not be loaded/);
  });

  it('a passport read answers as OCR failing (the check is INCONCLUSIVE), and the next read loads again', async () => {
    let loads = 0;
    const reader: MrzReader = createLazyMrzReader(async () => {
      loads++;
      if (loads === 1) throw new Error("Cannot find package 'tesseract.js'");
      return import('../src/modules/verifications/mrz/mrz-reader.ts');
    });
    const mrz = createMrzEvidence(reader);
    const entered = { firstName: 'Ada', lastName: 'Okafor', dateOfBirth: '1990-01-01', document: { number: 'PB7730412', issuingCountry: 'AU' } };
    const front = { contentType: 'image/png' as const, bytes: Buffer.from('not a photo of a passport') };
    assert.deepEqual(await mrz.check(front, entered), judgeMrz({ found: false, reason: 'OCR_FAILED' }, entered).check);
    assert.equal((await mrz.check(front, entered)).message, judgeMrz({ found: false, reason: 'UNREADABLE_IMAGE' }, entered).check.message);
    assert.equal(loads, 2);
    await mrz.close();
  });
});

describe('the deed page reader’s child, compiled', () => {
  it('starts without tsx: pdfjs loaded natively, then the compiled child, and reads the text layer', async () => {
    // The pipeline compiled as the build compiles src/ (tsconfig.build.json), with the .mjs files copied beside it.
    const out = path.join(scratch, 'dist');
    const config = path.join(scratch, 'tsconfig.json');
    const pipeline = path.join(root, 'src/modules/deeds/pipeline');
    writeFileSync(
      config,
      JSON.stringify({
        extends: path.join(root, 'tsconfig.build.json'),
        compilerOptions: { outDir: out, sourceMap: false },
        files: ['read-pages.ts', 'read-pages.child-entry.ts', 'read-pages.child.ts'].map((file) => path.join(pipeline, file)),
        include: [],
      }),
    );
    await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: root });
    for (const file of readdirSync(pipeline).filter((name) => name.endsWith('.mjs'))) cpSync(path.join(pipeline, file), path.join(out, 'modules/deeds/pipeline', file));

    // A plain node (no tsx) reads a PDF with the compiled readDeedPages; the child records what it loads.
    const childLoads = path.join(scratch, 'child-loads.txt');
    const script = [
      `process.env.NODE_OPTIONS = ${JSON.stringify(`--import=${pathToFileURL(recordLoadsHook).href}`)};`,
      `process.env.${recordLoadsVariable} = ${JSON.stringify(childLoads)};`,
      `const { readDeedPages } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'modules/deeds/pipeline/read-pages.js')).href)});`,
      `const pdf = Buffer.from(${JSON.stringify(tinyPdf().toString('base64'))}, 'base64');`,
      `process.stdout.write(JSON.stringify(await readDeedPages(pdf, { deadlineMs: 60000, concurrency: 1 })));`,
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000 });
    assert.deepEqual(JSON.parse(stdout), { ok: true, pages: [{ number: 1, text: 'This deed of settlement is made between the settlor and the trustee.', source: 'TEXT_LAYER' }], ocrPages: 0 });

    const urls = readLoads(childLoads);
    const compiled = pathToFileURL(path.join(out, 'modules/deeds/pipeline')).href;
    assert.ok(urls.includes(`${compiled}/read-pages.child-entry.js`) && urls.includes(`${compiled}/read-pages.child.js`), 'the compiled entry and child ran');
    const loaded = loadedPackages(urls);
    assert.ok(loaded.has('pdfjs-dist'));
    assert.deepEqual(matchingPackages(loaded, ['tsx', 'esbuild']), [], 'no tsx in the compiled child');
  });
});
