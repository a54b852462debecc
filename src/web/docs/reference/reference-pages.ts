// The API reference as pages: the introduction (the document's own description, with its security
// schemes) and one page per tag, each the same document with only that tag's operations and webhooks (a
// tag of webhooks alone, the events, a page per kind of event).
// One page of everything was 30,000 elements and 2.75 MB of HTML, which no phone lays out quickly
// (Lighthouse scored it 69 with no script at all); a tag's page is a tenth of that.
import type { OpenApiDocument } from '../../../platform/http/openapi-documents.ts';

export interface ReferencePage {
  /** The last segment of the page's URL: `business-lookups`; '' for the introduction. */
  slug: string;
  /** What the navigation calls it: the tag's name as a heading (`Business lookups`). */
  title: string;
  document: OpenApiDocument;
}

type Operations = Record<string, { tags?: string[] } | undefined>;

export function slugOf(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const titleOf = (tag: string) => tag.charAt(0).toUpperCase() + tag.slice(1);

/**
 * An operation as the reference shows it. Redoc makes each response's title a button, with its description
 * inside: a link there would be a control inside a control, which a screen reader cannot reach (axe's
 * nested-interactive). The links of response descriptions are kept as their text; the guides they name are
 * linked from the introduction and every other description.
 */
function shownOperation(operation: Record<string, unknown>): Record<string, unknown> {
  const responses = operation.responses as Record<string, { description?: string }> | undefined;
  if (!responses) return operation;
  const unlinked = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      typeof response?.description === 'string' ? { ...response, description: response.description.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') } : response,
    ]),
  );
  return { ...operation, responses: unlinked };
}

/** Only the operations of `tag` of a paths (or webhooks) object; paths left with none are left out. */
function operationsOf(paths: Record<string, unknown> | undefined, tag: string): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(paths ?? {})) {
    const operations = Object.entries(item as Operations).filter(([, operation]) => operation?.tags?.includes(tag));
    if (operations.length > 0) kept[key] = Object.fromEntries(operations.map(([method, operation]) => [method, shownOperation(operation as Record<string, unknown>)]));
  }
  return kept;
}

/** The introduction first, then a page for every tag that has an operation or a webhook, in the document's tag order; `prefix` is where they are served (`/docs`). */
export function referencePages(document: OpenApiDocument, prefix: string): ReferencePage[] {
  const source = document as OpenApiDocument & { tags?: Array<{ name: string }>; webhooks?: Record<string, unknown>; paths?: Record<string, unknown> };
  const introduction: ReferencePage = { slug: '', title: 'Introduction', document: { ...source, tags: [], paths: {}, webhooks: {} } as OpenApiDocument };
  const pages: ReferencePage[] = [introduction];
  for (const tag of source.tags ?? []) {
    const paths = operationsOf(source.paths, tag.name);
    const webhooks = operationsOf(source.webhooks, tag.name);
    if (Object.keys(paths).length === 0 && Object.keys(webhooks).length === 0) continue;
    // The description belongs to the introduction; the page opens on the tag's own.
    const { description: _introduction, ...info } = source.info;
    const page = (name: string, title: string, slice: { paths: Record<string, unknown>; webhooks: Record<string, unknown> }) => {
      // Redoc shows a tag by its x-displayName: `Business lookups`, as the navigation names it.
      const shown = { ...tag, 'x-displayName': title };
      const tags: OpenApiDocument['tags'] = [shown];
      pages.push({ slug: slugOf(name), title, document: { ...source, info, tags, ...slice } as OpenApiDocument });
    };
    if (Object.keys(paths).length > 0) {
      page(tag.name, titleOf(tag.name), { paths, webhooks });
      continue;
    }
    // A tag of webhooks alone (the events): a page per kind of event (`payment.*`), since all thirty
    // with their payloads made a page of 10,000 elements (Lighthouse's phone score 56).
    const kinds = new Map<string, Record<string, unknown>>();
    for (const [name, item] of Object.entries(webhooks)) {
      const kind = name.split('.')[0]!;
      kinds.set(kind, { ...kinds.get(kind), [name]: item });
    }
    for (const [kind, ofKind] of kinds) page(`${tag.name} ${kind}`, `${titleOf(tag.name)}: ${kind}`, { paths: {}, webhooks: ofKind });
  }
  // The introduction lists the other pages, each with its tag's description, and how to authenticate
  // (Redoc's section of the security schemes, where the marker stands).
  const sections = pages.slice(1).map((page) => `- [${page.title}](${prefix}/reference/${page.slug}): ${page.document.tags?.[0]?.description ?? ''}`);
  const info = introduction.document.info;
  introduction.document = {
    ...introduction.document,
    info: { ...info, description: `${info.description ?? ''}\n\n## The reference\n\n${sections.join('\n')}\n\n## Authentication\n\n<!-- ReDoc-Inject: <security-definitions> -->\n` },
  };
  return pages;
}
