// A webhook receiver as a partner would run one: a real HTTP server on 127.0.0.1:0 that verifies
// every delivery with the published helper and answers what the test tells it to.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from 'pvs/verify-webhook';

export interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  verified: ReturnType<typeof verifyWebhook>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the next deliveries; the default answers 200. */
  respond(handler: (delivery: Received, res: ServerResponse) => void): void;
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startReceiver(options: { secret?: string; path?: string; now?: () => Date } = {}): Promise<Receiver> {
  let secret = options.secret ?? '';
  let handler: (delivery: Received, res: ServerResponse) => void = (_d, res) => res.writeHead(200).end('ok');
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const delivery: Received = {
        headers: req.headers,
        rawBody,
        body: JSON.parse(rawBody) as Record<string, unknown>,
        verified: verifyWebhook(secret, req.headers, rawBody, { now: options.now?.() }),
      };
      received.push(delivery);
      handler(delivery, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hooks'}`,
    received,
    respond: (h) => (handler = h),
    setSecret: (s) => (secret = s),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
