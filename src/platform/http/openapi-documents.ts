// The documents PVS describes its API in, cut from the one document @fastify/swagger generates from every
// documented route. Each route carries the name of its document (`x-pvs-document`, set by the scope it was
// registered in: openapi.ts, describeRoutesIn); a document holds its own operations and only the schemas,
// tags and security schemes they use, so nothing of the operators' API shows in the partner's. Every
// description that cites a guide by its path (docs/errors.md) links to the guide's page.
import { linkGuideCitations } from './guide-links.ts';

export type ApiDocumentName = 'partner' | 'operators';

/** Where an operation's document is named; a route registered in no named scope is the partner's. */
export const documentKeyword = 'x-pvs-document';

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: Json & { title: string; version: string; description?: string };
  servers?: Array<Json & { url: string }>;
  paths?: Record<string, Record<string, Json>>;
  components?: Json & { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: Array<{ name: string; description?: string }>;
}

const schemaRef = '#/components/schemas/';

/** The names of the component schemas `value` refers to, however deep. */
function referencedSchemas(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string' && member.startsWith(schemaRef)) found.add(decodeURIComponent(member.slice(schemaRef.length)));
    else referencedSchemas(member, found);
  }
}

/**
 * Every string under a `description` key, through `link`. An object the document holds in several places
 * (the webhooks' shared header parameters) is linked once: linked twice, its links would be wrapped in links.
 */
function linkDescriptions(value: unknown, link: (text: string) => string, seen = new WeakSet<object>()): void {
  if (!value || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) linkDescriptions(item, link, seen);
    return;
  }
  const object = value as Json;
  for (const [key, member] of Object.entries(object)) {
    if (key === 'description' && typeof member === 'string') object[key] = link(member);
    else linkDescriptions(member, link, seen);
  }
}

/**
 * One document's part of the whole: its operations (without the document keyword), the schemas they
 * reach, the tags and security schemes they name, and `info` of its own. The whole is not changed.
 */
export function selectDocument(
  whole: OpenApiDocument,
  name: ApiDocumentName,
  options: { info: OpenApiDocument['info']; publicBaseUrl: string; complete?: (document: OpenApiDocument) => void },
): OpenApiDocument {
  const paths: Record<string, Record<string, Json>> = {};
  const tags = new Set<string>();
  const schemes = new Set<string>();
  for (const [path, item] of Object.entries(whole.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const { [documentKeyword]: document = 'partner', ...described } = operation;
      if (document !== name) continue;
      (paths[path] ??= {})[method] = described;
      for (const tag of (described.tags as string[] | undefined) ?? []) tags.add(tag);
      for (const requirement of (described.security as Json[] | undefined) ?? []) for (const scheme of Object.keys(requirement)) schemes.add(scheme);
    }
  }

  const allSchemas = whole.components?.schemas ?? {};
  const reached = new Set<string>();
  referencedSchemas(paths, reached);
  for (let pending = [...reached]; pending.length > 0; ) {
    const next = new Set<string>();
    for (const schema of pending) referencedSchemas(allSchemas[schema], next);
    pending = [...next].filter((schema) => !reached.has(schema));
    for (const schema of pending) reached.add(schema);
  }
  const pick = (all: Record<string, unknown> | undefined, keep: Set<string>) => Object.fromEntries(Object.entries(all ?? {}).filter(([key]) => keep.has(key)));

  const document: OpenApiDocument = structuredClone({
    ...whole,
    info: options.info,
    tags: (whole.tags ?? []).filter((tag) => tags.has(tag.name)),
    paths,
    components: { ...whole.components, schemas: pick(allSchemas, reached), securitySchemes: pick(whole.components?.securitySchemes, schemes) },
  });
  // Completed before the links are made, so that what it adds may cite the guides too.
  options.complete?.(document);
  linkDescriptions(document, (text) => linkGuideCitations(text, options.publicBaseUrl));
  return document;
}
