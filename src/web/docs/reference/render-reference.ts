// One reference page rendered by Redoc on the server (render-worker.ts, in a worker thread): the markup,
// its styles as a stylesheet, and the state the page's script hydrates from when the reader first
// touches it (assets/reference-loader.js). The page itself needs no script to be read: Lighthouse's
// phone profile scored Redoc rendered in the browser at 39, rendered here and shown as HTML at 96+.
import { Worker } from 'node:worker_threads';
import type { OpenApiDocument } from '../../../platform/http/openapi-documents.ts';

export interface RenderRequest {
  document: OpenApiDocument;
  options: Record<string, unknown>;
}

export interface RenderResult {
  html: string;
  css: string;
  /** Redoc's store as JSON (AppStore.toJS): what the client hydrates from. */
  state: unknown;
}

const font = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';
const mono = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace';

/**
 * Redoc's options, the same on the server and in the client's hydration. No search (a page holds one
 * tag) and no download button (the frame links the document); the theme is the guides' (app.css):
 * their fonts, no web font to fetch, and colours dark enough on their backgrounds for WCAG AA.
 */
export const redocOptions: Record<string, unknown> = {
  disableSearch: true,
  hideDownloadButtons: true,
  hideLoading: true,
  nativeScrollbars: true,
  expandResponses: '',
  jsonSampleExpandLevel: 2,
  showWebhookVerb: true,
  theme: {
    colors: { primary: { main: '#123a63' }, text: { primary: '#1b2430', secondary: '#4a5563' }, success: { main: '#1a6b35' }, warning: { main: '#8a5300' }, error: { main: '#a4262c' }, http: { get: '#1a6b35', post: '#1f4fa3', put: '#7a4a00', delete: '#a4262c', patch: '#5b3a99' } },
    typography: { fontFamily: font, headings: { fontFamily: font, fontWeight: '600' }, code: { fontFamily: mono }, links: { color: '#1f4fa3', visited: '#1f4fa3', hover: '#123a63' } },
    sidebar: { backgroundColor: '#f3f5f8', textColor: '#1b2430', activeTextColor: '#123a63' },
    rightPanel: { backgroundColor: '#1f2933', textColor: '#ffffff' },
    codeBlock: { backgroundColor: '#111820' },
  },
};

/**
 * The few `style` attributes React writes (a sidebar's height, an arrow's turn) become data attributes
 * and rules of the stylesheet: the pages' policy refuses inline styles.
 */
export function moveInlineStyles(result: { html: string; css: string }): { html: string; css: string } {
  const rules = new Map<string, number>();
  const html = withoutMenuLabels(result.html).replace(/ style="([^"]*)"/g, (_match, style: string) => {
    const text = style.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');
    let index = rules.get(text);
    if (index === undefined) rules.set(text, (index = rules.size));
    return ` data-inline-style="${index}"`;
  });
  const css = [...rules].map(([style, index]) => `[data-inline-style="${index}"]{${style}}`).join('\n');
  return { html, css: `${result.css}\n${css}\n` };
}

/**
 * Redoc labels each item of its side menu with the operation's summary alone, while the item shows its
 * method too ("GET Open a report"): a name that leaves out what is seen fails WCAG 2.5.3 (axe's
 * label-content-name-mismatch), and the item's text is the better name.
 */
function withoutMenuLabels(markup: string): string {
  return markup.replace(/<li [^>]*role="menuitem"[^>]*>/g, (tag) => tag.replace(/ aria-label="[^"]*"/, ''));
}

const workerFile = new URL(import.meta.url.endsWith('.ts') ? './render-worker.source.mjs' : './render-worker.js', import.meta.url);

/** Renders `document` in a worker of its own, which ends with its answer. */
export function renderReference(document: OpenApiDocument): Promise<RenderResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: { document, options: redocOptions } satisfies RenderRequest });
    let result: RenderResult | undefined;
    worker.once('message', (message: RenderResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!result) return reject(new Error(`the reference renderer exited with ${code} and no page`));
      const moved = moveInlineStyles(result);
      resolve({ ...result, ...moved });
    });
  });
}
