// Multipart uploads: the hosted verification flow's document and selfie steps. A route that takes a form
// declares its text fields and its file fields; `readForm` reads every part before validation, so the
// text fields become request.body (judged by the route's schema and by the edge's text rules, as JSON
// bodies are) and the files wait for the handler, in memory, each cut off past its size limit. What the
// form gets wrong is a 400 VALIDATION_ERROR with a pointer per field, like any other body.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, fieldProblems, type FieldProblem } from '../errors.ts';
import { inspectDocument, jsonBodyLimits } from '../text-safety.ts';
import type { HttpApp } from './types.ts';
import { maxProblems } from './validation.ts';

export interface FormShape {
  files: readonly string[];
  /** The largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Words for a file over the limit: `larger than 10 MiB`. */
  tooLargeMessage: string;
}

/** What a file field holds in request.body, for the schema: the bytes are in `formFiles`. */
export const filePlaceholder = '(file)';

const files = new WeakMap<FastifyRequest, Map<string, Buffer>>();

/** Registers the multipart parser in this scope only: routes elsewhere still refuse forms with 415. */
export async function installMultipart(scope: HttpApp, limits: { maxFileBytes: number }): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: limits.maxFileBytes, files: 4, fields: 20, fieldSize: 4_096, parts: 24, headerPairs: 100 },
  });
}

/** A preValidation hook reading a multipart form of this shape. */
export function readForm(shape: FormShape) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.isMultipart()) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here; send multipart/form-data`);
    }
    const body: Record<string, string> = {};
    const kept = new Map<string, Buffer>();
    const problems: FieldProblem[] = [];
    const given = new Set<string>();
    try {
      for await (const part of request.parts()) {
        const pointer = `/${part.fieldname.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const twice = given.has(part.fieldname);
        given.add(part.fieldname);
        if (part.type === 'file') {
          let bytes: Buffer | undefined;
          try {
            bytes = await part.toBuffer();
          } catch (error) {
            if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
            problems.push({ pointer, message: shape.tooLargeMessage });
          }
          if (twice) problems.push({ pointer, message: 'is given twice' });
          else if (!shape.files.includes(part.fieldname)) problems.push({ pointer, message: 'is not a file field of this form' });
          else if (bytes) {
            kept.set(part.fieldname, bytes);
            body[part.fieldname] = filePlaceholder;
          }
        } else if (twice) problems.push({ pointer, message: 'is given twice' });
        else if (shape.files.includes(part.fieldname)) problems.push({ pointer, message: 'must be a file' });
        else body[part.fieldname] = String(part.value);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The parts end at a file over the limit (it is already among the problems): say what was found.
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' && problems.length) throw fieldProblems(problems);
      // Too many parts, a part cut short, a boundary that never closes: the form itself is broken.
      throw new AppError('VALIDATION_ERROR', 'The body is not a multipart form PVS can read (too many parts, or cut short)', { errors: [{ pointer: '', message: 'is not a readable multipart form' }] });
    }
    problems.push(...inspectDocument(body, jsonBodyLimits, { multiline: false, max: maxProblems }).map((p) => ({ pointer: p.pointer, message: p.message })));
    if (problems.length) throw fieldProblems(problems);
    files.set(request, kept);
    request.body = body;
  };
}

/** The files `readForm` kept for this request. */
export function formFiles(request: FastifyRequest): Map<string, Buffer> {
  return files.get(request) ?? new Map();
}
