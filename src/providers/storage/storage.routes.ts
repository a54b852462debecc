// The local back-end's upload endpoint: the partner's browser PUTs the deed here straight from the
// signed URL (SPEC endpoint rule 8), with no token: the URL's signature and the headers it binds are
// the permission. Registered only when STORAGE=local; with S3 the bucket takes the PUT itself.
//
// Whatever its Content-Type, the body reaches the handler unread (this scope's only parser hands over
// the stream), so the handler judges the request before a byte of it is read: the URL must be one PVS
// signed, unchanged and unexpired, and the headers exactly those in upload.headers (any difference:
// 403 FORBIDDEN naming the part that differs, never 415 or 400 from a parser); a Content-Length over
// the limit is 413 at once. The body is then streamed to disk and cut off the moment it passes the
// limit (413). A refusal with body left unread closes the connection, so PVS never reads (or waits
// for) the rest of a body it has refused.
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { exampleId } from '../../platform/ids.ts';
import type { LocalDocumentStorage } from './local-storage.ts';
import { uploadContentType, uploadIdHeader } from './upload-signatures.ts';

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'PUT',
  'access-control-allow-headers': `content-type, ${uploadIdHeader}`,
  'access-control-max-age': '3600',
};

// Where a deed analysis's PDF goes (its upload.url), so it sits with them in the document.
const tags = ['deed analyses'];

const UploadParams = Type.Object({
  folder: Type.String({ maxLength: 64, description: 'The first part of the key, as in upload.url.', examples: ['deeds'] }),
  name: Type.String({ maxLength: 100, description: 'The rest of the key, as in upload.url.', examples: [`${exampleId('deedAnalysis')}.pdf`] }),
});

function keyOf(request: FastifyRequest): string {
  const { folder, name } = request.params as { folder: string; name: string };
  return `${folder}/${name}`;
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

export async function registerStorageRoutes(app: HttpApp, deps: { storage: LocalDocumentStorage }): Promise<void> {
  const { storage } = deps;
  const tooLarge = new AppError('PAYLOAD_TOO_LARGE', `The body is larger than ${storage.maxUploadBytes} bytes, the most an upload may be; a deed may be at most 25 MB`);

  /** Throws the refusal for a PUT that is not exactly the one signed; reads nothing of the body. */
  function refuseUnlessSigned(request: FastifyRequest): void {
    const query = request.query as Record<string, unknown>;
    const url = storage.checkUploadUrl({ key: keyOf(request), query });
    if (!url.ok) throw new AppError('FORBIDDEN', url.detail, { pointer: url.pointer });
    // Before the headers: PVS's edge drops the Content-Type of a request without a body.
    if (!hasBody(request)) throw new AppError('VALIDATION_ERROR', 'The body is empty: send the PDF itself as the body', { pointer: '' });
    const headers = storage.checkUploadHeaders({ query, headers: request.headers });
    if (!headers.ok) throw new AppError('FORBIDDEN', headers.detail, { pointer: headers.pointer });
    if (Number(request.headers['content-length'] ?? 0) > storage.maxUploadBytes) throw tooLarge;
  }

  // Raw bodies only in this scope: the rest of PVS keeps its parsers, and still answers 415 to a PDF.
  await app.register(async (scope) => {
    const uploads = scope as HttpApp;
    const bodies = new WeakMap<FastifyRequest, Readable>();
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (request, payload, done) => {
      bodies.set(request, payload);
      done(null, undefined);
    });
    // Every answer, refusals included, is readable by the page that sent the PUT.
    uploads.addHook('onRequest', (_request, reply, done) => {
      reply.header('access-control-allow-origin', '*');
      done();
    });
    uploads.addHook('onSend', (request, reply, payload, done) => {
      if (request.raw.complete === false) reply.header('connection', 'close');
      done(null, payload);
    });

    uploads.options(
      '/storage/:folder/:name',
      {
        schema: {
          params: UploadParams,
          tags,
          summary: 'CORS preflight for a deed upload',
          description: 'Answers a browser’s preflight for the PUT to `upload.url`: any origin, PUT, with the headers in `upload.headers`.',
          operationId: 'preflightDeedUpload',
          response: { 204: { description: 'Allowed.', type: 'null' } },
        },
      },
      async (_request, reply) => reply.code(204).headers(corsHeaders).send(),
    );

    uploads.put(
      '/storage/:folder/:name',
      {
        schema: {
          params: UploadParams,
          tags,
          summary: 'Upload a deed PDF to its signed URL',
          description:
            'PUT the PDF to `upload.url` exactly as returned (its query: `upload`, `expires`, `signature`), as the raw body (no form, no JSON, no Authorization header), with exactly the headers in `upload.headers` (`Content-Type: application/pdf`, `x-pvs-upload-id`), before `upload.expiresAt`. Uploading again replaces the file. 200 with no body when stored. 403 FORBIDDEN when the URL or a header differs from what was returned, or the URL has expired (the detail and pointer say which); 413 PAYLOAD_TOO_LARGE over 26 MiB; 400 for an empty body. Cross-origin requests are allowed.',
          operationId: 'uploadDeedDocument',
          consumes: [uploadContentType],
          response: { 200: { description: 'Stored.', type: 'null' } },
        },
      },
      async (request, reply) => {
        refuseUnlessSigned(request);
        const outcome = await storage.receive(keyOf(request), bodies.get(request) ?? request.raw);
        if (!outcome.ok && outcome.reason === 'TOO_LARGE') throw tooLarge;
        if (!outcome.ok) throw new AppError('VALIDATION_ERROR', 'The body ended before it was complete; upload the file again', { pointer: '' });
        return reply.code(200).send();
      },
    );
  });
}
