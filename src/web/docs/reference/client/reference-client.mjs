// The reference page's interactive half, bundled by scripts/build.mjs (esbuild) into
// dist/web/docs/reference/assets/reference-client.js with the same Redoc, React, MobX and
// styled-components the server rendered the page with, so the markup it hydrates is its own.
// assets/reference-loader.js imports it when the reader first touches the page.
import { createElement } from 'react';
import { hydrate as hydrateLegacy } from 'react-dom';
import { AppStore, Redoc } from 'redoc';

/**
 * Makes the server's markup in `container` live; resolves when it is. React's synchronous hydration, so
 * that the loader knows when to repeat a click. styled-components finds the page's style nonce for the
 * rules it adds (a schema opened, another tab) in the csp-nonce meta element.
 */
export function hydrate(container, state) {
  const store = AppStore.fromJS(state);
  // As the server rendered it (render-worker.ts): the page's tag open in the side menu.
  for (const item of store.menu.flatItems) if (item.type === 'tag') item.expand?.();
  return new Promise((resolve) => hydrateLegacy(createElement(Redoc, { store }), container, resolve));
}
