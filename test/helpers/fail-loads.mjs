/**
 * Makes chosen packages fail to load, the way a package missing from an install does, to test what a
 * provider answers when its heavy package cannot be loaded.
 *
 *     FAIL_LOADS=stripe,pdfkit FAIL_LOADS_TIMES=1 FAIL_LOADS_REPORT=/tmp/attempts.json \
 *       node --import tsx --import ./test/helpers/fail-loads.mjs script.ts
 *
 * FAIL_LOADS: specifiers, comma-separated, exactly as the code imports or requires them (`stripe`,
 * `@aws-sdk/client-s3`, `pdfjs-dist/legacy/build/pdf.mjs`). The first FAIL_LOADS_TIMES (default 1)
 * attempts to resolve each, by `import` or `require`, throw as a missing package does
 * (ERR_MODULE_NOT_FOUND, MODULE_NOT_FOUND); later ones resolve as usual. At exit FAIL_LOADS_REPORT, when
 * set, gets `{ "<specifier>": attempts }` as JSON. Only the process started with it does this (the
 * variables are removed from its environment, so children load normally).
 */
import { writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { isMainThread, MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const failing = isMainThread ? (process.env.FAIL_LOADS ?? '').split(',').filter(Boolean) : [];

if (failing.length > 0) {
  const times = Number(process.env.FAIL_LOADS_TIMES ?? 1);
  const report = process.env.FAIL_LOADS_REPORT;
  for (const name of ['FAIL_LOADS', 'FAIL_LOADS_TIMES', 'FAIL_LOADS_REPORT']) delete process.env[name];
  const attempts = Object.fromEntries(failing.map((specifier) => [specifier, 0]));

  // ES modules: resolved on the loader's thread, which reports each attempt here.
  const { port1, port2 } = new MessageChannel();
  register(import.meta.url, { data: { port: port2, failing, times }, transferList: [port2] });
  port1.unref();

  // CommonJS: `require` resolves here, in this thread.
  const resolveFilename = Module._resolveFilename;
  const requireAttempts = new Map();
  Module._resolveFilename = function (request, ...rest) {
    if (failing.includes(request)) {
      const attempt = (requireAttempts.get(request) ?? 0) + 1;
      requireAttempts.set(request, attempt);
      if (attempt <= times) throw Object.assign(new Error(`Cannot find module '${request}' (made to fail by fail-loads.mjs)`), { code: 'MODULE_NOT_FOUND' });
    }
    return resolveFilename.call(this, request, ...rest);
  };

  process.on('exit', () => {
    for (let message = receiveMessageOnPort(port1); message; message = receiveMessageOnPort(port1)) attempts[message.message] += 1;
    for (const [request, count] of requireAttempts) attempts[request] += count;
    if (report) writeFileSync(report, JSON.stringify(attempts));
  });
}

// The hook, in the loader's thread.

let settings = { port: undefined, failing: [], times: 0 };
const esmAttempts = new Map();

export function initialize(data) {
  settings = data;
}

export async function resolve(specifier, context, nextResolve) {
  if (settings.failing.includes(specifier)) {
    const attempt = (esmAttempts.get(specifier) ?? 0) + 1;
    esmAttempts.set(specifier, attempt);
    settings.port.postMessage(specifier);
    if (attempt <= settings.times) throw Object.assign(new Error(`Cannot find package '${specifier}' (made to fail by fail-loads.mjs)`), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return nextResolve(specifier, context);
}
