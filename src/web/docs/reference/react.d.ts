// The little of React the server renderer calls (render-worker.ts). @types/react is not installed: it
// declares DOM interfaces globally, which clash with the browser tests' types.
declare module 'react' {
  export function createElement(type: unknown, props?: Record<string, unknown> | null): unknown;
}
declare module 'react-dom/server' {
  export function renderToString(element: unknown): string;
}
