// A request's body as the operation's schema sees it: JSON as sent, or a multipart form's fields typed
// as the spec declares them, with every way it breaks the spec. A problem marked `ignoredByOnfido` (a
// field the spec does not name) is recorded as a violation but not refused, since Onfido ignores it.
import type { SpecOperation } from './spec.ts';
import { propertiesOf, type Problem, type SpecValidator } from './spec-validator.ts';
import { readMultipart, type UploadedFile } from './uploads.ts';

export interface ParsedBody {
  body: Record<string, unknown>;
  files: Map<string, UploadedFile>;
  problems: Problem[];
}

export async function parseBody(validator: SpecValidator, operation: SpecOperation, contentType: string | undefined, raw: Buffer): Promise<ParsedBody> {
  const none = (problems: Problem[]): ParsedBody => ({ body: {}, files: new Map(), problems });
  const accepted = operation.requestBody?.content;
  if (!accepted) return none(raw.length === 0 ? [] : [{ field: '(body)', message: `is sent, but ${operation.operationId} takes none`, ignoredByOnfido: true }]);
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const schema = accepted[mediaType]?.schema;
  if (!schema) return none([{ field: '(body)', message: `is ${mediaType || 'without a Content-Type'}; ${operation.operationId} takes ${Object.keys(accepted).join(' or ')}` }]);

  if (mediaType === 'multipart/form-data') {
    const form = await readMultipart(contentType!, raw, propertiesOf(schema, validator.schemas), validator.schemas);
    if (!form) return none([{ field: '(body)', message: 'is not a readable multipart form' }]);
    return { body: form.fields, files: form.files, problems: [...form.problems, ...validator.checkRequestBody(operation, mediaType, form.fields)] };
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return none([{ field: '(body)', message: 'is not JSON' }]);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return none([{ field: '(body)', message: 'must be a JSON object' }]);
  const fields = body as Record<string, unknown>;
  return { body: fields, files: new Map(), problems: validator.checkRequestBody(operation, mediaType, fields) };
}
