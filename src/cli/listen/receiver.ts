// The local receiver of `pvs listen`: an HTTP server on 127.0.0.1 that verifies every delivery with the
// partner-facing helper (sdk/verify-webhook.js, the very rules a partner's receiver follows), answers as
// docs/webhooks.md tells a receiver to (2xx; 401 for a signature that does not match, 400 for a missing
// or stale timestamp), and prints one line per delivery:
//
//   HH:MM:SS  <event type>  <event id>  verified
//   HH:MM:SS  <event type or ?>  <event id or ?>  REFUSED: <reason>
//
// A verified delivery is answered before it is forwarded (--forward-to), so PVS's 5-second deadline
// never depends on the developer's app.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { verifyWebhook } from '../../../sdk/verify-webhook.js';
import { ListenError } from './listen-options.ts';
import { networkReason } from './partner-client.ts';

export interface ReceiverOptions {
  port: number;
  path: string;
  forwardTo?: string;
  json: boolean;
  /** Prints one line (or the JSON after it); the caller makes sure it leaves at once. */
  print: (text: string) => void;
  now?: () => Date;
}

export interface Receiver {
  /** The URL a destination points at: localhost, as sandbox destinations are written. */
  url: string;
  /** Until it is set, deliveries are answered 503 and not printed (a reused destination's retries). */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/** PVS's own limit on what it reads; its payloads are far smaller. */
const maxBodyBytes = 1024 * 1024;
const forwardTimeoutMs = 10_000;
// Hop-by-hop headers, and those fetch sets itself; every other header is forwarded as received.
const notForwarded = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'te', 'trailer', 'upgrade', 'expect', 'proxy-connection']);

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  let secret: string | undefined;
  const now = options.now ?? (() => new Date());
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end();
      options.print(line(now(), undefined, request.headers, `REFUSED: ${(error as Error).message}`));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method !== 'POST' || path !== options.path) {
      request.resume();
      answer(response, path === options.path ? 405 : 404, `pvs listen receives POST ${options.path}`);
      options.print(line(now(), undefined, request.headers, `REFUSED: ${request.method} ${path} (only POST ${options.path} is received)`));
      return;
    }
    const raw = await readBody(request);
    if (raw === 'too large') {
      answer(response, 413, `body larger than ${maxBodyBytes} bytes`);
      options.print(line(now(), undefined, request.headers, `REFUSED: body larger than ${maxBodyBytes} bytes`));
      return;
    }
    if (secret === undefined) return answer(response, 503, 'pvs listen is starting; retry');

    const verified = verifyWebhook(secret, request.headers, raw);
    // Parsed for display only; the event is believed only once verified.
    const event = parseEvent(raw);
    if (!verified.ok) {
      answer(response, verified.status, verified.reason);
      print(line(now(), event, request.headers, `REFUSED: ${verified.reason}`), event);
      return;
    }
    answer(response, 200, 'received by pvs listen');
    const forwarded = options.forwardTo ? `  ${await forward(options.forwardTo, request.headers, raw)}` : '';
    print(line(now(), event, request.headers, `verified${forwarded}`), event);
  }

  function print(text: string, event: Record<string, unknown> | undefined): void {
    options.print(options.json && event ? `${text}\n${printableJson(event)}` : text);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new ListenError(`Port ${options.port} on 127.0.0.1 is in use (another pvs listen, or an app of yours?). Choose another with --port, e.g. --port ${options.port === 65535 ? 4001 : options.port + 1}`));
      } else if (error.code === 'EACCES') {
        reject(new ListenError(`Not allowed to listen on port ${options.port}; choose another with --port`));
      } else reject(error);
    });
    server.listen(options.port, '127.0.0.1', resolve);
  });

  return {
    url: `http://localhost:${options.port}${options.path}`,
    setSecret: (value) => (secret = value),
    close: () =>
      new Promise((resolve) => {
        // PVS keeps its connections alive between deliveries: close those at once, not after their timeout.
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > maxBodyBytes ? 'too large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseEvent(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The line of one delivery. `event` may be a forgery: what it says is shown, never trusted, never raw. */
export function line(at: Date, event: Record<string, unknown> | undefined, headers: IncomingHttpHeaders, outcome: string): string {
  const time = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  const header = headers['x-event-id'];
  const type = typeof event?.type === 'string' ? event.type : undefined;
  const id = typeof event?.eventId === 'string' ? event.eventId : typeof header === 'string' ? header : undefined;
  return `${time}  ${printable(type)}  ${printable(id)}  ${printable(outcome, 300)}`;
}

/** No control characters (a terminal would obey them) and no endless text from a stranger's request. */
function printable(text: string | undefined, max = 100): string {
  if (!text) return '?';
  const clean = Array.from(text, (c) => (c.charCodeAt(0) < 0x20 || /[\u007f-\u009f]/.test(c) ? '?' : c)).join('');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Indented JSON; JSON escapes C0 controls itself, and C1 controls are escaped here too. */
function printableJson(value: Record<string, unknown>): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

async function forward(target: string, headers: IncomingHttpHeaders, raw: Buffer): Promise<string> {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || notForwarded.has(name)) continue;
    forwarded.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  try {
    const response = await fetch(target, { method: 'POST', headers: forwarded, body: raw, redirect: 'manual', signal: AbortSignal.timeout(forwardTimeoutMs) });
    await response.body?.cancel();
    return `forwarded: ${response.status}`;
  } catch (error) {
    return `forward failed: ${networkReason(error)}`;
  }
}
