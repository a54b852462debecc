/**
 * Records every module a process loads, to show what a command or a server really pulls in
 * (docs/architecture.md, "What a process loads").
 *
 * Use it as an `--import` hook, after tsx when running sources:
 *
 *     RECORD_LOADS_FILE=/tmp/loads.txt node --import tsx --import ./test/helpers/record-loads.mjs src/…
 *     RECORD_LOADS_FILE=/tmp/loads.txt node --import ./test/helpers/record-loads.mjs bin/pvs.mjs --help
 *
 * When the process exits (normally or by `process.exit`; not when killed by a signal it does not handle),
 * the file named by RECORD_LOADS_FILE holds one URL a line, each once, sorted: every URL the ES module
 * resolver answered (`file:///…/node_modules/fastify/…`, `node:fs`), and every file `require` loaded,
 * as a `file://` URL. Without RECORD_LOADS_FILE the hook does nothing.
 *
 * Only the process started with it records: it removes RECORD_LOADS_FILE from its own environment, so
 * a child process (a fork that inherits `--import`, a worker thread) does not overwrite the file.
 *
 * test/helpers/module-loads.ts reads the file and names the packages in it, for assertions such as
 * "`pvs --help` loads no pdfjs-dist".
 *
 * How: Node 20's `module.register` resolve hook runs on the loader's own thread; it posts each URL to
 * this (main) thread over a MessagePort, drained synchronously at exit. `require` does not go through
 * that hook in Node 20, so the files in the require cache are added at exit.
 */
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const outputFile = isMainThread ? process.env.RECORD_LOADS_FILE : undefined;

if (outputFile) {
  delete process.env.RECORD_LOADS_FILE;
  const { port1, port2 } = new MessageChannel();
  register(import.meta.url, { data: { port: port2 }, transferList: [port2] });
  port1.unref();
  process.on('exit', () => {
    const urls = new Set();
    for (let message = receiveMessageOnPort(port1); message; message = receiveMessageOnPort(port1)) urls.add(message.message);
    for (const file of Object.keys(createRequire(import.meta.url).cache)) urls.add(file.startsWith('node:') ? file : pathToFileURL(file).href);
    writeFileSync(outputFile, [...urls].sort().map((url) => `${url}\n`).join(''));
  });
}

// The hooks, in the loader's thread.

/** @type {import('node:worker_threads').MessagePort | undefined} */
let recorder;

export function initialize(data) {
  recorder = data?.port;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  recorder?.postMessage(resolved.url);
  return resolved;
}
