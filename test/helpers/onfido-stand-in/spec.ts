// Onfido's published OpenAPI description (test/fixtures/onfido/openapi.json, vendored unmodified: see
// its README), and finding the operation a request is for. Operation paths are the spec's own,
// relative to the server's base path (/v3.6).
import { readFileSync } from 'node:fs';

export type Schema = Record<string, unknown>;

export interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface SpecOperation {
  operationId: string;
  /** Upper case, as requests carry it. */
  method: string;
  /** The spec's template, e.g. `/applicants/{applicant_id}`. */
  path: string;
  parameters: SpecParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OnfidoSpec {
  /** The path of the documented server, `/v3.6`. */
  basePath: string;
  schemas: Record<string, Schema>;
  operations: SpecOperation[];
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];
let loaded: OnfidoSpec | undefined;

/** Read once per process: the file is 300 kB and never changes under a test run. */
export function loadSpec(): OnfidoSpec {
  if (loaded) return loaded;
  const raw = JSON.parse(readFileSync(new URL('../../fixtures/onfido/openapi.json', import.meta.url), 'utf8')) as {
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, Schema> };
  };
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(raw.paths)) {
    const shared = (item.parameters as SpecParameter[] | undefined) ?? [];
    for (const method of methods) {
      const op = item[method] as (Omit<SpecOperation, 'method' | 'path'> & { parameters?: SpecParameter[] }) | undefined;
      if (!op) continue;
      operations.push({ ...op, method: method.toUpperCase(), path, parameters: [...shared, ...(op.parameters ?? [])] });
    }
  }
  // `https://api.{region}.onfido.com/v3.6`: only the path part matters here.
  const basePath = new URL(raw.servers[0]!.url.replace('{region}', 'eu')).pathname;
  loaded = { basePath, schemas: raw.components.schemas, operations };
  return loaded;
}

export type Match =
  | { operation: SpecOperation; params: Record<string, string> }
  | { operation: null; pathKnown: boolean };

/**
 * The operation for a method and a path below the base path. Where templates overlap
 * (`/webhooks/resend`, `/webhooks/{webhook_id}`) the one with more literal segments wins, as routers do.
 */
export function matchOperation(spec: OnfidoSpec, method: string, path: string): Match {
  const segments = path.split('/').slice(1);
  let best: { operation: SpecOperation; params: Record<string, string>; literals: number } | null = null;
  let pathKnown = false;
  for (const operation of spec.operations) {
    const template = operation.path.split('/').slice(1);
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const fits = template.every((part, i) => {
      const given = segments[i]!;
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name) {
        params[name] = decodeSegment(given);
        return given !== '';
      }
      literals++;
      return part === given;
    });
    if (!fits) continue;
    if (operation.method !== method) {
      pathKnown = true;
      continue;
    }
    if (!best || literals > best.literals) best = { operation, params, literals };
  }
  return best ? { operation: best.operation, params: best.params } : { operation: null, pathKnown };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
