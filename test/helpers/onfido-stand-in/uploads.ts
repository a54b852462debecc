// Multipart uploads as @onfido/api sends them (the `form-data` package): text fields and one `file`
// part. Parsed with the platform's own multipart reader (undici's `Request.formData()`), so nothing
// beyond Node is needed. Files are judged by their bytes, as Onfido judges them, not by their name.
import type { Schema } from './spec.ts';
import { typeOf } from './spec-validator.ts';

export interface UploadedFile {
  data: Buffer;
  fileName: string;
}

export interface FileKind {
  /** As Onfido's `file_type` names it. */
  fileType: 'jpg' | 'png' | 'pdf';
  contentType: string;
}

export interface ParsedForm {
  fields: Record<string, unknown>;
  files: Map<string, UploadedFile>;
  /** A field sent twice, or a part that cannot be read. */
  problems: Array<{ field: string; message: string }>;
}

/**
 * A multipart body as the operation's fields: booleans and numbers from their text, objects (the
 * `location` @onfido/api sends as JSON text) parsed, and each file as a placeholder string, since the
 * spec's `format: binary` is a string to a JSON Schema validator.
 */
export async function readMultipart(contentType: string, raw: Buffer, properties: Map<string, Schema>, schemas: Record<string, Schema>): Promise<ParsedForm | null> {
  let form: FormData;
  try {
    form = await new Request('http://stand-in.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: raw }).formData();
  } catch {
    return null;
  }
  const parsed: ParsedForm = { fields: {}, files: new Map(), problems: [] };
  for (const [name, value] of form) {
    if (name in parsed.fields) {
      parsed.problems.push({ field: name, message: 'is sent more than once' });
      continue;
    }
    if (typeof value !== 'string') {
      parsed.files.set(name, { data: Buffer.from(await value.arrayBuffer()), fileName: value.name });
      parsed.fields[name] = `<${value.size} bytes>`;
      continue;
    }
    const member = properties.get(name);
    parsed.fields[name] = member ? typed(value, typeOf(member, schemas)) : value;
  }
  return parsed;
}

function typed(text: string, type: string | undefined): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'integer' || type === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** JPEG, PNG or PDF by their signatures; anything else is a file Onfido refuses. */
export function kindOf(data: Buffer): FileKind | null {
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { fileType: 'jpg', contentType: 'image/jpeg' };
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { fileType: 'png', contentType: 'image/png' };
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return { fileType: 'pdf', contentType: 'application/pdf' };
  return null;
}

/**
 * Whether an image is one flat colour (every pixel the same): the stand-in's way of saying "no face"
 * or "no document" in it. `null` when the image cannot be decoded. PDFs are not looked into.
 */
export async function isFlatColour(data: Buffer): Promise<boolean | null> {
  // sharp is heavy; only the uploads that ask for validation load it.
  const { default: sharp } = await import('sharp');
  try {
    const stats = await sharp(data).stats();
    return stats.channels.every((channel) => channel.min === channel.max);
  } catch {
    return null;
  }
}
