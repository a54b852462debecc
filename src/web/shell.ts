// The frame of every portal and console page: a skip link, the top bar with who is signed in and the
// sign-out button, the area's navigation (a side column on a desktop, a scrolling strip on a phone),
// and the main landmark. One stylesheet and one script, both from /web/assets (no inline script or
// style: the pages' Content-Security-Policy allows neither).
import { html, type Html } from './html.ts';

export interface NavItem {
  key: string;
  label: string;
  href: string;
}

export interface ShellOptions {
  area: 'portal' | 'console';
  title: string;
  body: Html;
  /** The navigation key of this page (`aria-current`). */
  current?: string;
  /** Scripts of this page beyond the shared one, from /web/assets (the passkey pages'). */
  scripts?: string[];
  /** Signed in: who, and the session's CSRF token for the sign-out form. Absent on the sign-in pages. */
  viewer?: { email: string; context?: string; csrf: string; nav: NavItem[] };
}

const areaNames = { portal: 'Partner portal', console: 'Operator console' } as const;

/** The <head> every page of ours has: the shared stylesheet and script (no inline code: the CSP), and any stylesheet of its own. */
export function pageHead(title: string, stylesheets: string[] = [], scripts: string[] = []): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="/web/assets/app.css">
${stylesheets.map((href) => html`<link rel="stylesheet" href="${href}">
`)}<script src="/web/assets/app.js" defer></script>
${scripts.map((src) => html`<script src="${src}" defer></script>
`)}</head>`;
}

export function renderShell(options: ShellOptions): string {
  const { viewer } = options;
  const areaName = areaNames[options.area];
  return `<!doctype html>${
    html`<html lang="en">
${pageHead(`${options.title} · PVS ${areaName}`, [], options.scripts)}
<body class="area-${options.area}${viewer ? '' : ' signed-out'}">
<a class="skip-link" href="#main">Skip to main content</a>
<header class="topbar">
<a class="brand" href="/${options.area}"><span class="brand-mark" aria-hidden="true">PVS</span><span class="brand-name">${areaName}</span></a>
${
  viewer
    ? html`<div class="account">
<span class="account-who"><span class="visually-hidden">Signed in as </span>${viewer.email}${viewer.context ? html`<span class="account-context">${viewer.context}</span>` : ''}</span>
<form method="post" action="/${options.area}/logout"><input type="hidden" name="_csrf" value="${viewer.csrf}"><button type="submit" class="button button-quiet">Sign out</button></form>
</div>`
    : ''
}
</header>
<div class="layout">
${
  viewer && viewer.nav.length > 0
    ? html`<nav class="sidenav" aria-label="${areaName}"><ul>${viewer.nav.map(
        (item) => html`<li><a href="${item.href}"${item.key === options.current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
      )}</ul></nav>`
    : ''
}
<main id="main" tabindex="-1">
${options.body}
</main>
</div>
<footer class="footer"><p>PVS · ${areaName}</p></footer>
</body>
</html>`.text
  }`;
}
