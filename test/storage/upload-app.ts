// PVS's edge as app.ts builds it (the same Fastify options, problem+json, request hooks, load shedding,
// the input guard, the form parser and a JSON route) with the local storage's upload routes, on a
// storage directory of its own. Built here rather than with buildApp so that these tests need no
// database; the deed tests drive the same routes through the whole app.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import formBody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../src/platform/clock.ts';
import { createKeyRing } from '../../src/platform/keys/key-ring.ts';
import { installInputGuard } from '../../src/platform/http/input-guard.ts';
import { installLoadShedding } from '../../src/platform/http/load-shedding.ts';
import { clientErrorHandler, frameworkErrors, installProblemHandling, maxPathParameterLength } from '../../src/platform/http/problem.ts';
import { installRequestHooks } from '../../src/platform/http/request-hooks.ts';
import type { HttpApp } from '../../src/platform/http/types.ts';
import { validatorCompiler } from '../../src/platform/http/validation.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createLocalStorage, type LocalDocumentStorage } from '../../src/providers/storage/local-storage.ts';
import { registerStorageRoutes } from '../../src/providers/storage/storage.routes.ts';

export const publicBaseUrl = 'http://pvs.test';
const bodyLimitBytes = 1024 * 1024;

export interface UploadApp {
  app: HttpApp;
  storage: LocalDocumentStorage;
  /** DATA_DIR/uploads. */
  dir: string;
  logText(): string;
  close(): Promise<void>;
}

export async function createUploadApp(options: { clock: Clock }): Promise<UploadApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pvs-storage-'));
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', destination: sink as never });
  const app: HttpApp = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: bodyLimitBytes,
    routerOptions: { maxParamLength: maxPathParameterLength },
    requestTimeout: 120_000,
    forceCloseConnections: true,
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  installProblemHandling(app);
  installRequestHooks(app, { production: false });
  installLoadShedding(app, { maxInFlight: 64 });
  installInputGuard(app, { bodyLimit: bodyLimitBytes });
  await app.register(formBody, { bodyLimit: 16 * 1024 });
  // A route of the rest of PVS, to show the upload scope changes nothing outside it.
  app.post('/v1/echo', { schema: { body: Type.Object({ text: Type.String() }) } }, async (request) => request.body);

  const dir = path.join(dataDir, 'uploads');
  const storage = createLocalStorage({ dir, publicBaseUrl, signingKeys: createKeyRing('storage-test-secret-0123456789abcdef').macKeys('storage-uploads'), clock: options.clock });
  await registerStorageRoutes(app, { storage });
  await app.ready();

  return {
    app,
    storage,
    dir,
    logText: () => lines.join(''),
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
