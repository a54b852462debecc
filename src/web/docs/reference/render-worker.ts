// The worker that renders one reference page with Redoc (render-reference.ts starts it): React's server
// renderer takes seconds of CPU for a page, which the server's own thread must not spend.
import { parentPort, workerData } from 'node:worker_threads';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import redoc from 'redoc';
import { ServerStyleSheet } from 'styled-components';
import type { RenderRequest, RenderResult } from './render-reference.ts';

const { createStore, Redoc } = redoc;
const request = workerData as RenderRequest;
const store = await createStore(request.document, undefined, request.options);
// A page holds one tag: its operations are listed open in the side menu (the client does the same).
for (const item of store.menu.flatItems) if (item.type === 'tag') (item as { expand?: () => void }).expand?.();
const sheet = new ServerStyleSheet();
try {
  const html = renderToString(sheet.collectStyles(createElement(Redoc, { store })));
  // The rules as text, for a stylesheet of their own: the pages' policy allows no inline <style>.
  const css = sheet
    .getStyleElement()
    .map((element) => (element.props as { dangerouslySetInnerHTML?: { __html?: string } }).dangerouslySetInnerHTML?.__html ?? '')
    .join('\n');
  const result: RenderResult = { html, css, state: await store.toJS() };
  parentPort!.postMessage(result);
} finally {
  sheet.seal();
}
