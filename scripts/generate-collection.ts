// Writes docs/collections/pvs.postman_collection.json, a Postman collection (v2.1, which Bruno and Insomnia
// import too) of the partner API, from the partner's /openapi.json as sdk/scripts/openapi-types.ts gets it.
// The file is never edited by hand: test/collection.test.ts fails when it differs from what this writes now.
//
//   node --import tsx scripts/generate-collection.ts           rewrite the collection
//   node --import tsx scripts/generate-collection.ts --check   exit 1 when the committed file is out of date
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import converter from 'openapi-to-postmanv2';
import { fetchPartnerDocument } from '../sdk/scripts/openapi-types.ts';

export const collectionPath = fileURLToPath(new URL('../docs/collections/pvs.postman_collection.json', import.meta.url));
export const regenerateCommand = 'node --import tsx scripts/generate-collection.ts';

const apiScope = 'channel-partner-api/server';

type Json = Record<string, unknown>;
interface Header { key: string; value: string; disabled?: boolean; description?: unknown }
interface Query { key: string; value: string | null; disabled?: boolean }
interface Url { host: string[]; path: string[]; query?: Query[]; variable?: Array<{ key: string }>; raw?: string }
interface Request { method: string; url: Url; header?: Header[]; auth?: unknown; body?: { mode?: string; urlencoded?: Header[] } }
interface Item { name: string; id?: string; item?: Item[]; request?: Request; response?: unknown[]; event?: unknown[] }

// Runs before every request in Postman and newman. Postman's own OAuth 2.0 helper fetches tokens only when
// someone clicks "Get New Access Token" in the app; newman (and a collection run in CI) never fetches one.
// So the script does: it asks /oauth2/token once, keeps the token until a minute before it expires, and
// the collection's OAuth 2.0 auth sends it as {{accessToken}}. A token belongs to one PVS and one client,
// so a change of baseUrl or clientId fetches a new one.
const tokenScript = [
  '// Fetches an access token with the client credentials and reuses it until a minute before it expires.',
  '// Requests with "No Auth" (the token endpoint, health, hosted pages) need none.',
  "if (!(pm.request.auth && pm.request.auth.type === 'noauth')) {",
  "  const baseUrl = pm.variables.get('baseUrl');",
  "  const clientId = pm.variables.get('clientId');",
  "  const clientSecret = pm.variables.get('clientSecret');",
  "  const owner = baseUrl + ' ' + clientId;",
  "  const expiresAt = Number(pm.collectionVariables.get('accessTokenExpiresAt') || 0);",
  "  const cached = pm.collectionVariables.get('accessToken') && pm.collectionVariables.get('accessTokenOwner') === owner && Date.now() < expiresAt;",
  '  if (!cached) {',
  "    if (!clientId || !clientSecret) throw new Error('Set the collection variables clientId and clientSecret (the partner portal shows them) first.');",
  '    pm.sendRequest({',
  "      url: baseUrl + '/oauth2/token',",
  "      method: 'POST',",
  "      header: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }, { key: 'Accept', value: 'application/json' }],",
  '      body: {',
  "        mode: 'urlencoded',",
  '        urlencoded: [',
  "          { key: 'grant_type', value: 'client_credentials' },",
  "          { key: 'client_id', value: clientId },",
  "          { key: 'client_secret', value: clientSecret },",
  `          { key: 'scope', value: '${apiScope}' },`,
  '        ],',
  '      },',
  '    }, (error, response) => {',
  '      if (error) throw error;',
  "      if (response.code !== 200) throw new Error('POST /oauth2/token answered ' + response.code + ': ' + response.text());",
  '      const token = response.json();',
  "      pm.collectionVariables.set('accessToken', token.access_token);",
  "      pm.collectionVariables.set('accessTokenExpiresAt', String(Date.now() + (token.expires_in - 60) * 1000));",
  "      pm.collectionVariables.set('accessTokenOwner', owner);",
  '    });',
  '  }',
  '}',
];

const variables = [
  { key: 'baseUrl', value: 'http://localhost:3000', description: 'The PVS to call: the sandbox `npm start` serves, or the address PVS gave you.' },
  { key: 'clientId', value: '', description: 'Your API client id (the partner portal shows it).' },
  { key: 'clientSecret', value: '', description: 'Its secret. Keep it in the current value only, so that it is never synced or exported.' },
  { key: 'partnerId', value: '', description: 'Your partner id (`ptn_…`), sent as X-Partner-Id.' },
  { key: 'accessToken', value: '', description: 'Set by the collection\'s pre-request script.' },
  { key: 'accessTokenExpiresAt', value: '', description: 'Set by the collection\'s pre-request script (milliseconds since 1970).' },
  { key: 'accessTokenOwner', value: '', description: 'Set by the collection\'s pre-request script: the baseUrl and clientId the token is for.' },
].map((v) => ({ ...v, type: 'string' }));

// Shown in Postman's Authorization tab, and what Bruno and Insomnia import as their own OAuth 2.0 settings.
// accessToken is what newman and Postman send; the script above fills it.
const collectionAuth = {
  type: 'oauth2',
  oauth2: Object.entries({
    accessToken: '{{accessToken}}',
    tokenType: 'Bearer',
    addTokenTo: 'header',
    grant_type: 'client_credentials',
    accessTokenUrl: '{{baseUrl}}/oauth2/token',
    clientId: '{{clientId}}',
    clientSecret: '{{clientSecret}}',
    scope: apiScope,
    client_authentication: 'body',
    tokenName: 'PVS',
  }).map(([key, value]) => ({ key, value, type: 'string' })),
};

const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the document as "METHOD /path/{param}", and whether it needs a token. */
function listOperations(document: Json): Map<string, { isPublic: boolean }> {
  const found = new Map<string, { isPublic: boolean }>();
  for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!methods.has(method)) continue;
      const security = operation.security as unknown[] | undefined;
      found.set(`${method.toUpperCase()} ${route}`, { isPublic: !security || security.length === 0 });
    }
  }
  return found;
}

function operationKey(request: Request): string {
  return `${request.method} /${request.url.path.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`;
}

function rawUrl(url: Url): string {
  const query = (url.query ?? []).filter((q) => !q.disabled).map((q) => `${q.key}=${q.value ?? ''}`);
  return `${url.host.join('.')}/${url.path.join('/')}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function rewriteRequest(request: Request, isPublic: boolean): void {
  if (request.url.host.join('.') !== '{{baseUrl}}') throw new Error(`${operationKey(request)} is not based on {{baseUrl}}`);
  request.url.raw = rawUrl(request.url);
  const headers = request.header ?? [];
  for (const header of headers) {
    const name = header.key.toLowerCase();
    if (name === 'x-partner-id') Object.assign(header, { key: 'X-Partner-Id', value: '{{partnerId}}', disabled: false });
    // A fresh key each time: a GUI's "Send" is a new operation, not a retry of the last one.
    if (name === 'idempotency-key') Object.assign(header, { key: 'Idempotency-Key', value: '{{$guid}}', disabled: false });
  }
  if (isPublic) {
    request.auth = { type: 'noauth' };
  } else {
    // Inherits the collection's OAuth 2.0 auth.
    delete request.auth;
    if (!headers.some((h) => h.key === 'X-Partner-Id')) headers.unshift({ key: 'X-Partner-Id', value: '{{partnerId}}' });
  }
  request.header = headers;
  if (operationKey(request) === 'POST /oauth2/token') {
    const form: Record<string, string> = { grant_type: 'client_credentials', client_id: '{{clientId}}', client_secret: '{{clientSecret}}', scope: apiScope };
    for (const field of request.body?.urlencoded ?? []) {
      if (field.key in form) Object.assign(field, { value: form[field.key], disabled: false });
    }
  }
}

function rewriteItems(items: Item[], operations: Map<string, { isPublic: boolean }>, seen: Set<string>): Item[] {
  const kept: Item[] = [];
  for (const item of items) {
    // Ids are random UUIDs on every conversion; the clients that import the file give their own.
    delete item.id;
    if (item.item) {
      item.item = rewriteItems(item.item, operations, seen);
      // The `events` tag names the webhooks PVS sends, which are not requests a partner makes.
      if (item.item.length > 0) kept.push(item);
      continue;
    }
    const request = item.request!;
    const key = operationKey(request);
    const operation = operations.get(key);
    if (!operation) throw new Error(`the converter made ${key}, which the document does not have`);
    seen.add(key);
    rewriteRequest(request, operation.isPublic);
    // The saved responses were most of the file (1.7 MB): every operation repeats the same problem+json
    // answers, with bodies made up by the converter. The OpenAPI document at /docs shows the answers.
    item.response = [];
    if (item.event?.length === 0) delete item.event;
    kept.push(item);
  }
  return kept;
}

// json-schema-faker, inside the converter, fills the values the document gives no example for (a header's
// pattern, a multipart field) at random: from its `random` option, which holds the Math.random of when it
// was loaded, and from Math.random itself. A fixed seed for both during the conversion gives the same bytes
// every run. It is the converter's own copy of the faker (the same module instance), hence the deep path.
const faker = createRequire(import.meta.url)('openapi-to-postmanv2/assets/json-schema-faker.js') as { option(options: { random: () => number }): void };

async function withSeededRandom<T>(run: () => Promise<T>): Promise<T> {
  const random = Math.random;
  let state = 0x5eed;
  const seeded = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  Math.random = seeded;
  faker.option({ random: seeded });
  try {
    return await run();
  } finally {
    Math.random = random;
    faker.option({ random });
  }
}

async function convert(document: Json): Promise<Json> {
  return withSeededRandom(
    () =>
      new Promise<Json>((resolve, reject) => {
        converter.convertV2(
          { type: 'json', data: document },
          // Example: request bodies from the document's examples, not made up from the schemas.
          // Optional parameters stay in the requests, switched off.
          { folderStrategy: 'Tags', parametersResolution: 'Example', requestNameSource: 'Fallback', enableOptionalParameters: false, includeWebhooks: false },
          (error, result) => {
            if (error || !result?.result || !result.output?.[0]) reject(new Error(`openapi-to-postmanv2: ${error?.message ?? result?.reason ?? 'no collection'}`));
            else resolve(result.output[0].data as Json);
          },
        );
      }),
  );
}

/** The collection's text for `document`: the same document always gives the same bytes. */
export async function renderCollection(document: Json): Promise<string> {
  const converted = await convert(document);
  const operations = listOperations(document);
  const seen = new Set<string>();
  const items = rewriteItems(converted.item as Item[], operations, seen);
  const missing = [...operations.keys()].filter((key) => !seen.has(key));
  if (missing.length > 0) throw new Error(`the collection lacks ${missing.join(', ')}`);
  const { _postman_id: _id, ...info } = converted.info as Json;
  const collection = { info, item: items, event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: tokenScript } }], auth: collectionAuth, variable: variables };
  return `${JSON.stringify(collection, null, 2)}\n`;
}

export type CollectionCheck = { upToDate: true } | { upToDate: false; line: number; onDisk: string; generated: string };

/** Whether the committed collection is what the generator writes now (and where it first differs if not). */
export async function checkCollection(): Promise<CollectionCheck> {
  const generated = await renderCollection(await fetchPartnerDocument());
  let onDisk = '';
  try {
    onDisk = readFileSync(collectionPath, 'utf8');
  } catch {
    // A missing file is out of date like any other.
  }
  if (onDisk === generated) return { upToDate: true };
  const a = onDisk.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line < 0 ? a.length : line;
  return { upToDate: false, line: at + 1, onDisk: a[at] ?? '(end of file)', generated: b[at] ?? '(end of file)' };
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= 'silent';
  const relative = path.relative(process.cwd(), collectionPath);
  if (process.argv.includes('--check')) {
    const check = await checkCollection();
    if (!check.upToDate) {
      console.error(`${relative} is out of date from line ${check.line}: run \`${regenerateCommand}\``);
      process.exit(1);
    }
    console.log(`${relative} is up to date`);
    return;
  }
  const text = await renderCollection(await fetchPartnerDocument());
  mkdirSync(path.dirname(collectionPath), { recursive: true });
  writeFileSync(collectionPath, text);
  console.log(`wrote ${relative} (${Math.round(Buffer.byteLength(text) / 1024)} KiB)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
