// The API reference at /docs (and the operators' at /docs/ops in the sandbox): Redoc, rendered on the
// server one page per tag (reference-pages.ts), each page at its first request, in a worker, then kept.
// Everything a page loads is PVS's own: the policy allows this host only, and a nonce for the styles
// Redoc's components add once the page is live (assets/reference-loader.js hydrates it at the reader's
// first touch). `<prefix>/json` and `<prefix>/yaml` answer the page's document.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { OpenApiDocument } from '../../../platform/http/openapi-documents.ts';
import type { HttpApp } from '../../../platform/http/types.ts';
import { html } from '../../html.ts';
import { referencePages, type ReferencePage } from './reference-pages.ts';
import { noncePlaceholder, referenceAssetsPath, renderReferenceFrame } from './reference-page.ts';
import { renderReference } from './render-reference.ts';

/**
 * The client bundle is made by the build (scripts/build.mjs) into dist/: beside this module when it is
 * compiled, in the checkout's dist/ when it runs from the sources.
 */
function findClientBundle(): string | undefined {
  return ['./assets/reference-client.js', '../../../../dist/web/docs/reference/assets/reference-client.js']
    .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
    .find((file) => existsSync(file));
}

const staticAssets: Record<string, { type: string; file: () => string | undefined }> = {
  'reference.css': { type: 'text/css; charset=utf-8', file: () => fileURLToPath(new URL('./assets/reference.css', import.meta.url)) },
  'reference-loader.js': { type: 'text/javascript; charset=utf-8', file: () => fileURLToPath(new URL('./assets/reference-loader.js', import.meta.url)) },
  'reference-client.js': { type: 'text/javascript; charset=utf-8', file: findClientBundle },
};

/** What a page keeps once rendered. */
interface RenderedPage {
  /** The whole page, with the nonce's placeholder. */
  page: string;
  state: string;
}

/** Redoc's stylesheets by name (`redoc-<hash>.css`): pages whose styles are the same share one. */
const stylesheets = new Map<string, string>();

const pageCsp = (nonce: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 64 }) });

/** The reference pages of one document at `prefix` (`/docs`). */
export function registerReference(app: HttpApp, options: { prefix: string; title: string; documentUrl: string; document: () => OpenApiDocument }): void {
  const { prefix } = options;
  let pages: ReferencePage[] | undefined;
  const pagesOf = () => (pages ??= referencePages(options.document(), prefix));
  const pathOf = (page: ReferencePage) => (page.slug ? `${prefix}/reference/${page.slug}` : prefix);
  const statePathOf = (page: ReferencePage) => `${prefix}/reference/${page.slug || 'introduction'}/state.json`;

  const rendered = new Map<string, Promise<RenderedPage>>();
  const renderedOf = (page: ReferencePage): Promise<RenderedPage> => {
    let promise = rendered.get(page.slug);
    if (!promise) {
      promise = renderReference(page.document).then((result) => {
        const name = `redoc-${createHash('sha256').update(result.css).digest('hex').slice(0, 16)}.css`;
        stylesheets.set(name, result.css);
        const frame = {
          apiTitle: options.title,
          pageTitle: page.title,
          documentUrl: options.documentUrl,
          sections: pagesOf().map((other) => ({ title: other.title, href: pathOf(other), current: other === page })),
          stylesheet: `${referenceAssetsPath}/${name}`,
          stateUrl: statePathOf(page),
          introduction: page.slug === '',
        };
        return { page: renderReferenceFrame(frame, result.html), state: JSON.stringify(result.state) };
      });
      // A failure is not kept: the next request tries again.
      promise.catch(() => rendered.delete(page.slug));
      rendered.set(page.slug, promise);
    }
    return promise;
  };

  const sendPage = async (reply: FastifyReply, page: ReferencePage) => {
    let done: RenderedPage;
    try {
      done = await renderedOf(page);
    } catch (error) {
      reply.log.error({ err: error, page: page.slug || 'introduction' }, 'the API reference page could not be rendered');
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', pageCsp(randomBytes(16).toString('base64')))
        .header('retry-after', '5')
        .send(
          `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference unavailable</title><link rel="stylesheet" href="/web/assets/app.css"></head><body><main><h1>The reference could not be shown</h1><p>Try again in a few seconds. The whole API is described in <a href="${options.documentUrl}">the OpenAPI document</a>.</p></main></body></html>`.text}`,
        );
    }
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageCsp(nonce))
      .header('cross-origin-opener-policy', 'same-origin')
      // Each answer has a nonce of its own: not to be kept and served again.
      .header('cache-control', 'no-store')
      .send(done.page.replaceAll(noncePlaceholder, nonce));
  };

  const notFound = (reply: FastifyReply) =>
    reply.code(404).type('text/html; charset=utf-8').header('content-security-policy', pageCsp(randomBytes(16).toString('base64'))).send(
      `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><link rel="stylesheet" href="/web/assets/app.css"></head><body><main><h1>No such page of the reference</h1><p><a href="${prefix}">The reference</a> lists its pages.</p></main></body></html>`.text}`,
    );

  const pageBySlug = (slug: string) => pagesOf().find((page) => page.slug === slug && slug !== '');

  app.get(prefix, { schema: { hide: true } }, async (_request, reply) => sendPage(reply, pagesOf()[0]!));
  app.get(`${prefix}/reference/:slug`, { schema: { hide: true, params: SlugParams } }, async (request, reply) => {
    const page = pageBySlug((request.params as { slug: string }).slug);
    return page ? sendPage(reply, page) : notFound(reply);
  });
  app.get(`${prefix}/reference/:slug/state.json`, { schema: { hide: true, params: SlugParams } }, async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const page = slug === 'introduction' ? pagesOf()[0] : pageBySlug(slug);
    if (!page) return reply.code(404).type('application/problem+json').send({ type: 'about:blank', title: 'Not Found', status: 404, detail: `The reference has no page ${slug}` });
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send((await renderedOf(page)).state);
  });
  app.get(`${prefix}/json`, { schema: { hide: true } }, async () => options.document());
  // yaml is loaded at the first request for it, not at every start.
  app.get(`${prefix}/yaml`, { schema: { hide: true } }, async (_request, reply) => reply.type('application/yaml; charset=utf-8').send((await import('yaml')).stringify(options.document())));
}

/** The assets every reference page shares, once per app. */
export function registerReferenceAssets(app: HttpApp): void {
  app.get(`${referenceAssetsPath}/:name`, { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const css = stylesheets.get(name);
    // A stylesheet named by its contents never changes.
    if (css !== undefined) return reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(css);
    const file = Object.hasOwn(staticAssets, name) ? staticAssets[name]!.file() : undefined;
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type(staticAssets[name]!.type).header('cache-control', 'public, max-age=300').send(readFileSync(file));
  });
}
