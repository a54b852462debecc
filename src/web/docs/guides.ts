// The guides in docs/ as pages: /docs/guides is docs/README.md (the documentation's index) and
// /docs/guides/<name> is docs/<name>.md, rendered once at their first request (render-guide.ts) in a frame
// of their own (guide-page.ts), under the pages' policy: no inline script or style. The images the guides
// show are served from /docs/guides/images/<file>.
//
// What is served is a list made from the docs/ directory when the server starts: a URL names an entry of
// that list, and nothing from a URL is ever joined onto a path of the file system. The package ships docs/
// (package.json "files"), so an installed PVS serves the guides of its own version.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { guideNamePattern, guidePath, guidesPath, indexGuide } from '../../platform/http/guide-links.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { html } from '../html.ts';
import { pageCsp } from '../pages.ts';
import { renderGuidePage, type GuideLink } from './guide-page.ts';
import { renderGuide, type RenderedGuide } from './render-guide.ts';

/** docs/ beside src/ (or dist/): the same three levels up from src/web/docs/ and from dist/web/docs/. */
const docsDirectory = fileURLToPath(new URL('../../../docs/', import.meta.url));

const imageTypes: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

const assets = new Map([['guides.css', { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/guides.css', import.meta.url)) }]]);

/**
 * The files a PVS may serve from docs/: each guide's file by name, each image's by file name. Regular
 * files only: a symbolic link, which could lead anywhere, is not listed.
 */
function listGuideFiles(directory: string): { guides: Map<string, string>; images: Map<string, string> } {
  const files = (folder: string) => {
    try {
      return readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile());
    } catch {
      return [];
    }
  };
  const guides = new Map<string, string>();
  for (const entry of files(directory)) {
    const name = entry.name.endsWith('.md') ? entry.name.slice(0, -3) : undefined;
    if (name !== undefined && guideNamePattern.test(name)) guides.set(name, path.join(directory, entry.name));
  }
  const images = new Map<string, string>();
  for (const entry of files(path.join(directory, 'images'))) {
    if (/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/.test(entry.name) && imageTypes[path.extname(entry.name).toLowerCase()]) images.set(entry.name, path.join(directory, 'images', entry.name));
  }
  return { guides, images };
}

const NameParams = Type.Object({ name: Type.String({ maxLength: 100 }) });

export function registerGuides(app: HttpApp): void {
  const { guides, images } = listGuideFiles(docsDirectory);
  const names = { guides: new Set(guides.keys()), images: new Set(images.keys()) };
  const rendered = new Map<string, RenderedGuide>();
  const guideOf = (name: string): RenderedGuide => {
    let guide = rendered.get(name);
    if (!guide) {
      guide = renderGuide(readFileSync(guides.get(name)!, 'utf8'), names);
      rendered.set(name, guide);
    }
    return guide;
  };
  // The navigation: the index first, then every guide by its title, short (`Webhooks: a partner's guide`
  // is `Webhooks`).
  let navigation: GuideLink[] | undefined;
  const navigationOf = () =>
    (navigation ??= [...guides.keys()]
      .map((name) => ({ name, title: (guideOf(name).title || name).split(':')[0]! }))
      .sort((a, b) => (a.name === indexGuide ? -1 : b.name === indexGuide ? 1 : a.title.localeCompare(b.title))));

  const sendGuidePage = (reply: FastifyReply, status: number, title: string, article: string, current?: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageCsp)
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cache-control', status === 200 ? 'public, max-age=300' : 'no-store')
      .send(renderGuidePage({ title, article, guides: navigationOf(), current }));

  const sendGuide = (reply: FastifyReply, name: string) => {
    const guide = guideOf(name);
    return sendGuidePage(reply, 200, guide.title || name, `<article class="guide">\n${guide.html}</article>`, name);
  };

  const notFound = (reply: FastifyReply) =>
    sendGuidePage(
      reply,
      404,
      'Guide not found',
      html`<article class="guide"><h1>Guide not found</h1><p>There is no guide at this address. <a href="${guidesPath}">All the guides</a> are listed on the overview.</p></article>`.text,
    );

  app.get(guidesPath, { schema: { hide: true } }, async (_request, reply) => (guides.has(indexGuide) ? sendGuide(reply, indexGuide) : notFound(reply)));

  app.get(`${guidesPath}/:name`, { schema: { hide: true, params: NameParams } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    if (guides.has(name)) return sendGuide(reply, name);
    // The file's own name, as a link written by hand might give it: to its page.
    if (name.endsWith('.md') && guides.has(name.slice(0, -3))) return reply.redirect(guidePath(name.slice(0, -3)), 301);
    return notFound(reply);
  });

  app.get(`${guidesPath}/images/:name`, { schema: { hide: true, params: NameParams } }, async (request, reply) => {
    const file = images.get((request.params as { name: string }).name);
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type(imageTypes[path.extname(file).toLowerCase()]!).header('cache-control', 'public, max-age=300').send(await readFile(file));
  });

  app.get(`${guidesPath}/assets/:name`, { schema: { hide: true, params: NameParams } }, async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });
}
