// The portal's and the console's stylesheet and script, served from /web/assets. Read once at start;
// no build step. The pages' policy (area.ts) allows scripts and styles from PVS's own origin only.
import { readFileSync } from 'node:fs';
import type { HttpApp } from '../platform/http/types.ts';

const types: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

const assets = new Map(
  ['app.css', 'app.js'].map((name) => [name, { type: types[name.slice(name.lastIndexOf('.'))]!, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) }]),
);

export function registerWebAssets(app: HttpApp): void {
  app.get('/web/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // Five minutes: a deploy shows its new styles soon without each page fetching them again.
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });
}
