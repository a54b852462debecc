// What a process loaded, as recorded by record-loads.mjs (its comment says how to run a process with it).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The `--import` hook's path, for a child's argv: `['--import', 'tsx', '--import', recordLoadsHook, …]`. */
export const recordLoadsHook = fileURLToPath(new URL('./record-loads.mjs', import.meta.url));

/** The environment variable naming the file record-loads.mjs writes at exit. */
export const recordLoadsVariable = 'RECORD_LOADS_FILE';

/** The packages only a heavy provider may load: PDF, OCR, canvas, images, cloud and payment SDKs. */
/** OpenTelemetry's SDK, loaded only when tracing is configured (@opentelemetry/api alone is loaded always). */
export const tracingPackages = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/instrumentation',
  '@opentelemetry/instrumentation-undici',
  '@fastify/otel',
];

export const heavyPackages = ['pdfjs-dist', 'tesseract.js', 'tesseract.js-core', '@napi-rs/canvas', 'sharp', 'pdfkit', 'fontkit', '@aws-sdk/*', '@smithy/*', 'stripe', '@onfido/api', 'axios'];

/** The URLs in a file record-loads.mjs wrote, one a line. */
export function readLoads(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** The npm packages among loaded URLs (`fastify`, `@aws-sdk/client-s3`), by the innermost node_modules of each. */
export function loadedPackages(urls: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(url);
    if (match) names.add(decodeURIComponent(match[1]!));
  }
  return names;
}

/** Which of `patterns` (a name, or `@scope/*`) match a package among `loaded`. */
export function matchingPackages(loaded: Iterable<string>, patterns: readonly string[] = heavyPackages): string[] {
  const found = [...loaded].filter((name) => patterns.some((p) => (p.endsWith('/*') ? name.startsWith(p.slice(0, -1)) : name === p)));
  return found.sort();
}
