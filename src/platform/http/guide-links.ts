// Where a running PVS serves the guides in docs/ (src/web/docs/guides.ts), and how text that cites one by
// its path in the repository (`docs/errors.md`, `docs/conventions.md#rate-limits`) becomes a link to its
// page. The OpenAPI documents are read off the server too (saved, imported into a client), so the links
// written into them are absolute, from PUBLIC_BASE_URL.

export const guidesPath = '/docs/guides';

/** docs/README.md, the documentation's own index, is the index page of the guides. */
export const indexGuide = 'README';

/** A guide's name is its file's name in docs/ without `.md`. */
export const guideNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The served page of docs/<name>.md, with its `#anchor` if one is given. */
export function guidePath(name: string, anchor = ''): string {
  return `${name === indexGuide ? guidesPath : `${guidesPath}/${name}`}${anchor}`;
}

// `docs/<name>.md`, optionally with `#anchor`: a markdown link's target (after `](`), or words.
const citation = /(\]\()?\bdocs\/([A-Za-z0-9_-]+)\.md(#[A-Za-z0-9_-]+)?/g;

/**
 * A markdown description in which every docs/*.md it cites leads to the served page: a link's target
 * becomes the page's URL, and a path written as words becomes a link with the same words.
 */
export function linkGuideCitations(markdown: string, baseUrl: string): string {
  return markdown.replace(citation, (words: string, linkTarget: string | undefined, name: string, anchor: string | undefined) => {
    const url = `${baseUrl}${guidePath(name, anchor)}`;
    return linkTarget ? `](${url}` : `[${words}](${url})`;
  });
}
