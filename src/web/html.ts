// Server-rendered HTML without a template engine: a tagged template that escapes every value it is
// given, so text from the database can never become markup. Markup made by `html` nests unescaped.

const marker = Symbol('html');

export interface Html {
  readonly [marker]: true;
  readonly text: string;
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]!);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && marker in value) return (value as Html).text;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1]!;
  });
  return { [marker]: true, text };
}

/** A whole page: mobile-first, English, with the stylesheet of the hosted pages. */
export function page(options: { title: string; body: Html; scripts?: string[] }): string {
  return `<!doctype html>${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${options.title}</title>
<link rel="stylesheet" href="/hosted/assets/hosted.css">
${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body>
<main id="main">
${options.body}
</main>
</body>
</html>`.text
  }`;
}
