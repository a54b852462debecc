// A TCP proxy a test controls, between the service and a real PostgreSQL or Redis: `cut()` is the
// dependency going away (every open connection closed at once, every new one closed as it arrives),
// `restore()` is it coming back. The dependency itself is never touched, so other test files sharing
// it are unaffected.
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Closes every open connection, and every new one as soon as it is accepted, until restore(). */
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
  /** Connections accepted and closed at once while cut. */
  readonly refused: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isCut = false;
  let refused = 0;

  const server = createServer((client) => {
    if (isCut) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        open.delete(socket);
        other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function destroyAll() {
    for (const socket of open) socket.destroy();
    open.clear();
  }

  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      isCut = true;
      destroyAll();
    },
    restore() {
      isCut = false;
    },
    get isCut() {
      return isCut;
    },
    get refused() {
      return refused;
    },
    close() {
      destroyAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
