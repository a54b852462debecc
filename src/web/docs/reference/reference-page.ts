// The frame of a reference page: the guides' top bar (app.css), a strip naming every page of the
// reference, and Redoc's markup as the server rendered it. Its stylesheets and scripts are files of
// PVS's own; the one nonce is for the styles Redoc's components add once the page is live
// (styled-components reads it from the csp-nonce meta element).
import { guidesPath } from '../../../platform/http/guide-links.ts';
import { html } from '../../html.ts';

export const referenceAssetsPath = '/docs/reference/assets';

export interface ReferenceFrame {
  /** The API's name: `PVS partner API`. */
  apiTitle: string;
  pageTitle: string;
  /** Where the document is (`/openapi.json`), linked for download. */
  documentUrl: string;
  sections: Array<{ title: string; href: string; current: boolean }>;
  /** The page's own Redoc stylesheet (`…/redoc-<hash>.css`). */
  stylesheet: string;
  /** Where the client reads Redoc's state from when it hydrates. */
  stateUrl: string;
  /** The first page, which alone shows the API's title and description. */
  introduction: boolean;
}

export const noncePlaceholder = '__PVS_STYLE_NONCE__';

/** The page, with {@link noncePlaceholder} where each answer puts its own nonce. `markup` is Redoc's HTML as rendered. */
export function renderReferenceFrame(frame: ReferenceFrame, markup: string): string {
  const top = html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${frame.pageTitle} · ${frame.apiTitle}</title>
<link rel="stylesheet" href="/web/assets/app.css">
<link rel="stylesheet" href="${referenceAssetsPath}/reference.css">
<link rel="stylesheet" href="${frame.stylesheet}">
<meta property="csp-nonce" nonce="${noncePlaceholder}">
<script src="${referenceAssetsPath}/reference-loader.js" defer></script>
</head>
<body class="area-docs reference${frame.introduction ? '' : ' reference-tag'}">
<a class="skip-link" href="#main">Skip to main content</a>
<header class="topbar">
<a class="brand" href="/docs"><span class="brand-mark" aria-hidden="true">PVS</span><span class="brand-name">${frame.apiTitle}</span></a>
<nav class="topnav" aria-label="Documentation"><a href="${guidesPath}">Guides</a> <a href="${frame.documentUrl}">OpenAPI document</a></nav>
</header>
<nav class="reference-sections" aria-label="Reference sections"><ul>${frame.sections.map(
    (section) => html`<li><a href="${section.href}"${section.current ? html` aria-current="page"` : ''}>${section.title}</a></li>`,
  )}</ul></nav>
<main id="main" tabindex="-1"><div id="redoc" data-state="${frame.stateUrl}" data-client="${referenceAssetsPath}/reference-client.js">`;
  const bottom = html`</div></main>
</body>
</html>`;
  return `<!doctype html>${top.text}${markup}${bottom.text}`;
}
