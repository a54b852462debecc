// The in-flight count itself, on a bare Fastify instance: every way a request can end gives its slot
// back exactly once, and a slot is held for as long as a handler works, whether or not its client is
// still there. test/robustness/overload.test.ts drives the same through the whole service.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, afterEach, before, describe, it } from 'node:test';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { createLogger } from '../logger.ts';
import { installLoadShedding, type LoadShedding } from './load-shedding.ts';
import type { HttpApp } from './types.ts';

/** Handlers wait on it until the test opens it; `until` waits for a number of them to be waiting. */
function createGate() {
  let open!: () => void;
  let promise = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const watchers: Array<() => void> = [];
  const changed = () => watchers.splice(0).forEach((w) => w());
  return {
    async pass() {
      waiting += 1;
      changed();
      await promise;
      waiting -= 1;
      changed();
    },
    /** Until exactly `n` handlers wait here. */
    async until(n: number) {
      while (waiting !== n) await new Promise<void>((resolve) => watchers.push(resolve));
    },
    open() {
      open();
      promise = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

const limit = 2;
const handlerGate = createGate();
const preHandlerGate = createGate();
const logs: Array<Record<string, unknown>> = [];
let app: HttpApp;
let shedding: LoadShedding;
let origin: string;

before(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = Fastify({ loggerInstance: createLogger({ level: 'info', destination: sink as never }) as FastifyBaseLogger }).withTypeProvider<TypeBoxTypeProvider>();
  // Stands for the input guard: a hook before the shedder that refuses a request itself.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers['x-refuse'] !== undefined) return void reply.code(400).send({ refused: true });
    done();
  });
  shedding = installLoadShedding(app, { maxInFlight: limit, quietMs: 50 });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/hold', async () => {
    await handlerGate.pass();
    return { held: true };
  });
  app.get('/sync', (_request, reply) => {
    void reply.send({ sync: true });
  });
  app.get('/throw', () => {
    throw new Error('thrown before any promise');
  });
  app.get('/reject', async () => {
    throw new Error('rejected');
  });
  app.get('/late-handler', { preHandler: async () => preHandlerGate.pass() }, async () => {
    await handlerGate.pass();
    return { late: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
after(() => app.close());
// A failed test must not leave handlers waiting for the next one.
afterEach(async () => {
  for (const gate of [preHandlerGate, handlerGate]) {
    gate.open();
    await gate.until(0);
  }
});

/** A real request over a socket of its own, which the test can cut. */
function cuttable(path: string) {
  const request = http.get(`${origin}${path}`, { agent: false });
  request.on('error', () => {});
  const socket = new Promise<Socket>((resolve) => request.on('socket', resolve));
  return {
    async cut() {
      (await socket).destroy();
      await serverConnectionsClosed();
    },
  };
}

/** Waits until the server has closed every connection (the test's cut sockets included). */
async function serverConnectionsClosed() {
  for (;;) {
    const open = await new Promise<number>((resolve, reject) => app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    if (open === 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('installLoadShedding', () => {
  it('counts requests in progress, refuses the next at the limit without counting it, and never counts /health', async () => {
    const held = [app.inject('/hold'), app.inject('/hold')];
    await handlerGate.until(2);
    assert.equal(shedding.inFlight(), 2);

    const refused = await app.inject('/sync');
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.json<{ code: string }>().code, 'SERVICE_UNAVAILABLE');
    assert.equal(shedding.inFlight(), 2);
    assert.equal((await app.inject('/health')).statusCode, 200);
    assert.equal(shedding.inFlight(), 2);

    handlerGate.open();
    await Promise.all(held);
    await settle();
    assert.equal(shedding.inFlight(), 0);
  });

  it('gives the slot back once however the request ends: a sync reply, a throw, a rejection, a refusal by an earlier hook, an unknown route', async () => {
    assert.equal((await app.inject('/sync')).statusCode, 200);
    assert.equal((await app.inject('/throw')).statusCode, 500);
    assert.equal((await app.inject('/reject')).statusCode, 500);
    assert.equal((await app.inject({ url: '/sync', headers: { 'x-refuse': '1' } })).statusCode, 400);
    assert.equal((await app.inject('/nowhere')).statusCode, 404);
    await settle();
    assert.equal(shedding.inFlight(), 0);
  });

  it('keeps the slot of a handler whose client hung up until the handler settles', async () => {
    const request = cuttable('/hold');
    await handlerGate.until(1);
    assert.equal(shedding.inFlight(), 1);
    await request.cut();
    await settle();
    assert.equal(shedding.inFlight(), 1, 'the handler still works');

    handlerGate.open();
    await handlerGate.until(0);
    await settle();
    assert.equal(shedding.inFlight(), 0);
  });

  it('gives the slot back when the client hangs up before the handler starts, and takes it again while the handler runs', async () => {
    const request = cuttable('/late-handler');
    await preHandlerGate.until(1);
    assert.equal(shedding.inFlight(), 1);
    await request.cut();
    await settle();
    assert.equal(shedding.inFlight(), 0, 'nothing works for it while it waits in the preHandler');

    preHandlerGate.open();
    await handlerGate.until(1);
    assert.equal(shedding.inFlight(), 1, 'its handler runs after all, and counts');
    handlerGate.open();
    await handlerGate.until(0);
    await settle();
    assert.equal(shedding.inFlight(), 0);
  });

  it('logs one line when shedding starts and one when a quiet window ends it, with the counts', async () => {
    // The first test's episode ends on its own; start from a quiet state.
    const count = (prefix: string) => logs.filter((l) => String(l.msg).startsWith(prefix)).length;
    while (count('load shedding started') !== count('load shedding stopped')) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = logs.length;
    const held = [app.inject('/hold'), app.inject('/hold')];
    await handlerGate.until(2);
    for (let i = 0; i < 3; i++) assert.equal((await app.inject('/sync')).statusCode, 503);
    handlerGate.open();
    await Promise.all(held);
    let stopped: Record<string, unknown> | undefined;
    while (!(stopped = logs.slice(before).find((l) => l.msg === 'load shedding stopped'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = logs.slice(before).filter((l) => String(l.msg).startsWith('load shedding started'));
    assert.equal(started.length, 1);
    assert.equal(started[0]!.inFlight, 2);
    assert.equal(stopped.shed, 3);
  });
});
