// The portal's and the console's stylesheet and scripts, served from /web/assets. Read once at start;
// no build step. The pages' policy (area.ts) allows scripts and styles from PVS's own origin only, so
// the passkey pages' WebAuthn helper (@simplewebauthn/browser's bundle) is served from here too, never
// from a CDN.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HttpApp } from '../platform/http/types.ts';

const types: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** The package's browser bundle (its exports name only its modules: found beside its main file). */
const webauthnBundle = path.join(path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../dist/bundle/index.umd.min.js');

const assets = new Map([
  ...['app.css', 'app.js', 'passkeys.js'].map((name) => [name, new URL(`./assets/${name}`, import.meta.url)] as const),
  ['webauthn.js', webauthnBundle] as const,
].map(([name, file]) => [name, { type: types[name.slice(name.lastIndexOf('.'))]!, body: readFileSync(file) }]));

export function registerWebAssets(app: HttpApp): void {
  app.get('/web/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // Five minutes: a deploy shows its new styles soon without each page fetching them again.
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });
}
