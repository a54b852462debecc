// The frame of a guide's page: the portal's and the console's stylesheet (its colours, top bar, side
// navigation and footer) with one of the guides' own for the text, and the portal's script, which brings
// the current guide into view in the navigation strip on a phone. No inline script or style.
import { html } from '../html.ts';
import { pageHead } from '../shell.ts';
import { guidePath, guidesPath, indexGuide } from '../../platform/http/guide-links.ts';

export interface GuideLink {
  name: string;
  title: string;
}

/**
 * A whole page. `article` is HTML as it is sent: a guide rendered by render-guide.ts (which escapes all
 * text, and the HTML written in the markdown too) or markup made by `html`.
 */
export function renderGuidePage(options: { title: string; article: string; guides: GuideLink[]; current?: string }): string {
  const index = options.guides.find((guide) => guide.name === indexGuide);
  const others = options.guides.filter((guide) => guide.name !== indexGuide);
  const item = (guide: GuideLink, label: string) =>
    html`<li><a href="${guidePath(guide.name)}"${guide.name === options.current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const top = html`<html lang="en">
${pageHead(`${options.title} · PVS documentation`, [`${guidesPath}/assets/guides.css`])}
<body class="area-docs">
<a class="skip-link" href="#main">Skip to main content</a>
<header class="topbar">
<a class="brand" href="${guidesPath}"><span class="brand-mark" aria-hidden="true">PVS</span><span class="brand-name">Documentation</span></a>
<nav class="topnav" aria-label="References"><a href="/docs">API reference</a></nav>
</header>
<div class="layout">
<nav class="sidenav" aria-label="Guides"><ul>${index ? item(index, 'Overview') : ''}${others.map((guide) => item(guide, guide.title))}</ul></nav>
<main id="main" tabindex="-1">`;
  const bottom = html`</main>
</div>
<footer class="footer"><p>PVS · Documentation · <a href="/docs">API reference</a></p></footer>
</body>
</html>`;
  return `<!doctype html>${top.text}\n${options.article}\n${bottom.text}`;
}
