// The webhook sink's process: a plain node:http server on 127.0.0.1 that answers 200 at once (empty
// body) to every POST and records, per x-event-id, when the request's headers arrived. Times are
// process.hrtime (CLOCK_MONOTONIC, the same clock in every process on the machine), in milliseconds,
// so the bench process can subtract its own commit times from them. Driven over IPC by sink.ts; it
// stops when the parent goes away.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../sdk/verify-webhook.js';
import type { SinkCommand, SinkMessage } from './sink.ts';

process.on('disconnect', () => process.exit(0));

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

let arrivals = new Map<string, number>();
let expected = 0;
let reachedSent = false;
let duplicates = 0;
let withoutEventId = 0;
let secret: string | undefined;
let verifyEvery = 0;
let seen = 0;
let verified = 0;
let badSignatures: string[] = [];
let bytes = 0;

function send(message: SinkMessage) {
  if (process.connected) process.send!(message);
}

const server = http.createServer((request, response) => {
  const at = nowMs();
  // Answer at once; the body is read after (the connection is reused only once it is consumed).
  response.writeHead(200, { 'content-length': '0' });
  response.end();
  const eventId = request.headers['x-event-id'];
  seen += 1;
  const check = secret !== undefined && verifyEvery > 0 && seen % verifyEvery === 1 % verifyEvery;
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (check) chunks.push(chunk);
  });
  request.on('end', () => {
    if (!check) return;
    const result = verifyWebhook(secret!, request.headers, Buffer.concat(chunks));
    verified += 1;
    if (!result.ok && badSignatures.length < 5) badSignatures.push(`${String(eventId)}: ${result.reason}`);
  });
  if (typeof eventId !== 'string') {
    withoutEventId += 1;
    return;
  }
  if (arrivals.has(eventId)) {
    duplicates += 1;
    return;
  }
  arrivals.set(eventId, at);
  if (!reachedSent && expected > 0 && arrivals.size >= expected) {
    reachedSent = true;
    send({ type: 'reached', atMs: at });
  }
});
// Slices follow each other within seconds; a 5-s idle timeout could close the pool between them.
server.keepAliveTimeout = 60_000;

process.on('message', (command: SinkCommand) => {
  switch (command.type) {
    case 'expect':
      arrivals = new Map();
      expected = command.count;
      reachedSent = false;
      duplicates = 0;
      withoutEventId = 0;
      secret = command.secret;
      verifyEvery = command.verifyEvery ?? 0;
      seen = 0;
      verified = 0;
      badSignatures = [];
      bytes = 0;
      send({ type: 'ack', id: command.id });
      break;
    case 'collect':
      send({
        type: 'collected',
        id: command.id,
        eventIds: [...arrivals.keys()],
        arrivalsMs: Float64Array.from(arrivals.values()),
        duplicates,
        withoutEventId,
        verified,
        badSignatures,
        bytes,
      });
      break;
  }
});

server.listen(0, '127.0.0.1', () => {
  send({ type: 'listening', port: (server.address() as AddressInfo).port });
});
