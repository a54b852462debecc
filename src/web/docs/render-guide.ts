// One guide's markdown as HTML (marked, GitHub-flavoured). What it changes from marked's own output:
// - headings get GitHub's ids (`## Rate limits` → `rate-limits`), so the guides' `page.md#anchor` links land;
// - a link to another guide leads to its page, an image in docs/images to its served copy, and a link to
//   a file outside docs/ (src/…, the repository's README) is shown as its words only: nothing leads to a 404;
// - HTML written in the markdown is shown as text, never markup (the guides are text, and the pages'
//   policy allows no inline script or style);
// - a number written in groups of three (`54 222 222 228`) never breaks across lines (its spaces are
//   no-break spaces), except in code, which a reader copies as written;
// - a table scrolls sideways in a region of its own on a narrow screen, rather than widening the page, and
//   it and a code block can be scrolled from the keyboard.
import path from 'node:path';
import { Lexer, Parser, Renderer, type Token, type Tokens } from 'marked';
import { guidePath, guidesPath } from '../../platform/http/guide-links.ts';
import { escapeHtml } from '../html.ts';

export interface GuideFiles {
  /** The guides by name (docs/<name>.md). */
  guides: ReadonlySet<string>;
  /** The files of docs/images. */
  images: ReadonlySet<string>;
}

export interface RenderedGuide {
  /** The text of the first heading. */
  title: string;
  html: string;
  /** The ids of its headings: the anchors a link may name. */
  anchors: string[];
}

/** The words of inline tokens, without markup. */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if (token.type === 'html') return '';
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      return 'text' in token ? String(token.text) : '';
    })
    .join('');
}

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen; a repeat gets `-1`, `-2`. */
function createSlugger() {
  const seen = new Map<string, number>();
  return (text: string): string => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    return count === undefined ? base : `${base}-${count + 1}`;
  };
}

/**
 * Where a link or image written in docs/<guide>.md leads on the served pages, or undefined when it names
 * nothing served (a file outside docs/, or one that is not there).
 */
export function servedHref(href: string, files: GuideFiles): string | undefined {
  if (href.startsWith('#')) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return /^(https?|mailto):/i.test(href) ? href : undefined;
  const hash = href.indexOf('#');
  const target = hash === -1 ? href : href.slice(0, hash);
  const anchor = hash === -1 ? '' : href.slice(hash);
  // Resolved as the repository would: from docs/, so `../src/x.ts` is src/x.ts, outside.
  let inRepository: string;
  try {
    inRepository = path.posix.normalize(path.posix.join('docs', decodeURI(target)));
  } catch {
    return undefined;
  }
  const guide = /^docs\/([^/]+)\.md$/.exec(inRepository)?.[1];
  if (guide !== undefined && files.guides.has(guide)) return guidePath(guide, anchor);
  const image = /^docs\/images\/([^/]+)$/.exec(inRepository)?.[1];
  if (image !== undefined && files.images.has(image)) return `${guidesPath}/images/${image}`;
  return undefined;
}

class GuideRenderer extends Renderer {
  readonly anchors: string[] = [];
  title = '';
  private readonly slug = createSlugger();
  /** The heading the text is under, and the tables under it so far. */
  private section = '';
  private tablesInSection = 0;

  constructor(private readonly files: GuideFiles) {
    super();
  }

  override heading({ tokens, depth }: Tokens.Heading): string {
    const words = plainText(tokens);
    const id = this.slug(words);
    this.anchors.push(id);
    this.section = words;
    this.tablesInSection = 0;
    if (depth === 1 && !this.title) this.title = words;
    return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
  }

  override link({ href, title, tokens }: Tokens.Link): string {
    const words = this.parser.parseInline(tokens);
    const served = servedHref(href, this.files);
    if (served === undefined) return words;
    return `<a href="${escapeHtml(served)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${words}</a>`;
  }

  override image({ href, title, text }: Tokens.Image): string {
    const served = servedHref(href, this.files);
    // Only PVS's own images (the pages' policy allows no other origin): anything else is its description.
    if (served === undefined || !served.startsWith(`${guidesPath}/images/`)) return escapeHtml(text);
    return `<img src="${escapeHtml(served)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''} loading="lazy">`;
  }

  override text(token: Tokens.Text | Tokens.Escape): string {
    return super.text(token).replace(/(\d) (?=\d{3}(?!\d))/g, '$1\u00a0');
  }

  override html({ text }: Tokens.HTML | Tokens.Tag): string {
    return escapeHtml(text);
  }

  override checkbox({ checked }: Tokens.Checkbox): string {
    // A checklist's box is a mark to read, not a form field (one with no label, that sends nowhere).
    return checked ? '<span class="task" role="img" aria-label="Done">☑</span> ' : '<span class="task" role="img" aria-label="To check">☐</span> ';
  }

  override code(token: Tokens.Code): string {
    // A wide block scrolls sideways: focusable, so that a keyboard can scroll it too.
    return super.code(token).replace(/^<pre>/, '<pre tabindex="0">');
  }

  override table(token: Tokens.Table): string {
    // A region of its own, focusable, so that a keyboard can scroll a wide table; named after its section
    // (a page's regions each need a name of their own). Each cell carries its column's name, which a
    // phone shows beside it when the rows become cards (guides.css); its content is one box beside it.
    this.tablesInSection++;
    const name = `Table${this.tablesInSection > 1 ? ` ${this.tablesInSection}` : ''}: ${this.section || this.title}`;
    const align = (column: number) => (token.align[column] ? ` align="${token.align[column]}"` : '');
    const labels = token.header.map((cell) => escapeHtml(plainText(cell.tokens)));
    const head = token.header.map((cell, column) => `<th${align(column)}>${this.parser.parseInline(cell.tokens)}</th>`).join('');
    const rows = token.rows.map((row) => `<tr>${row.map((cell, column) => `<td data-label="${labels[column] ?? ''}"${align(column)}><span class="cell">${this.parser.parseInline(cell.tokens)}</span></td>`).join('')}</tr>`);
    return `<div class="table-scroll" role="region" aria-label="${escapeHtml(name)}" tabindex="0"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table></div>\n`;
  }
}

export function renderGuide(markdown: string, files: GuideFiles): RenderedGuide {
  const renderer = new GuideRenderer(files);
  const html = new Parser({ gfm: true, renderer }).parse(Lexer.lex(markdown, { gfm: true }));
  return { title: renderer.title, html, anchors: renderer.anchors };
}
