// The metrics listener: Prometheus's text format at GET /metrics, on an address of its own
// (METRICS_ADDRESS), never on the API's port. Nothing else is answered there. A process that cannot bind
// it does not start: a second process on the same host needs an address of its own, and saying so at
// once beats a process that runs unobserved.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../config.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsServer {
  /** The address it listens on (the port chosen, when METRICS_ADDRESS asked for 0). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, listen: { host: string; port: number }, onError: (error: unknown) => void): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n');
      },
    );
  });
  // Prometheus keeps its connection open between scrapes; on close they must not hold the process.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'
          ? new ConfigError(`METRICS_ADDRESS: ${listen.host}:${listen.port} cannot be listened on (${error.code}); another process on this host may hold it: give each its own address, or off`)
          : error,
      ),
    );
    server.listen(listen.port, listen.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
