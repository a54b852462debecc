// One schema for every setting. Parsed once at start, frozen, and passed to whoever needs it;
// nothing else in the service reads process.env.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { defaultPasswordHashCost } from './platform/crypto.ts';

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);
const LogLevel = Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)));
const Port = Type.Integer({ minimum: 0, maximum: 65535 });
const PositiveInt = Type.Integer({ minimum: 1 });
const Cents = Type.Integer({ minimum: 0, maximum: 10_000_000 });
/** Seconds, or a number with s, m or h. */
const Duration = Type.String({ pattern: '^[0-9]{1,7}[smh]?$' });

/** Every variable the service reads, with its default and its meaning. */
const settings = {
  ENVIRONMENT: { schema: Environment, default: 'sandbox', doc: '`sandbox` or `production`; production refuses sandbox providers' },
  PORT: { schema: Port, default: 3000, doc: 'HTTP port' },
  HOST: { schema: Type.String({ minLength: 1 }), default: '127.0.0.1', doc: 'interface to bind; 0.0.0.0 in a container' },
  PUBLIC_BASE_URL: { schema: Type.String({ pattern: '^https?://[^/]+(/.*)?$' }), default: undefined, doc: 'the address partners reach; defaults to http://localhost:PORT' },
  DATABASE_URL: { schema: Type.String({ pattern: '^postgres(ql)?://' }), default: undefined, doc: 'PostgreSQL; unset means embedded PGlite in DATA_DIR' },
  DATABASE_QUERY_TIMEOUT_SECONDS: { schema: PositiveInt, default: 30, doc: 'PostgreSQL: a query unanswered this long fails, and counts as the database being unreachable (migrations are exempt)' },
  DATABASE_CONNECT_TIMEOUT_SECONDS: { schema: PositiveInt, default: 3, doc: 'PostgreSQL: how long making a connection, or waiting for a free one in the pool, may take' },
  DATA_DIR: { schema: Type.String({ minLength: 1 }), default: './.data', doc: 'embedded database, generated secret key, local storage' },
  SECRET_KEY: { schema: Type.String({ minLength: 32 }), default: undefined, doc: 'root secret (≥ 32 chars), the key ring\'s current key: it seals everything new; generated into DATA_DIR in sandbox, required in production' },
  PREVIOUS_SECRET_KEYS: { schema: Type.String({ pattern: '^[^,]{32,}(,[^,]{32,})*$' }), default: undefined, doc: 'earlier SECRET_KEYs, comma-separated (each ≥ 32 chars): they still open and verify what they sealed and signed, never seal; remove one once `pvs keys status` shows nothing under it (docs/security.md, "Key ring")' },
  STORAGE: { schema: Type.Union([Type.Literal('local'), Type.Literal('s3')]), default: 'local', doc: 'object storage for uploads' },
  S3_BUCKET: { schema: Type.String({ minLength: 1 }), default: undefined, doc: 'bucket, with STORAGE=s3' },
  S3_REGION: { schema: Type.String({ minLength: 1 }), default: undefined, doc: 'region, with STORAGE=s3' },
  S3_ENDPOINT: { schema: Type.String({ pattern: '^https?://' }), default: undefined, doc: 'S3-compatible endpoint, with STORAGE=s3' },
  REDIS_URL: { schema: Type.String({ pattern: '^rediss?://' }), default: undefined, doc: 'shared rate-limit counters across API nodes' },
  LOG_LEVEL: { schema: LogLevel, default: 'info', doc: 'pino log level' },
  RATE_LIMIT_PER_SECOND: { schema: PositiveInt, default: 50, doc: 'sustained requests per second per partner' },
  RATE_LIMIT_BURST: { schema: PositiveInt, default: 100, doc: 'burst size per partner' },
  PASSWORD_HASH_COST: { schema: Type.Integer({ minimum: 10, maximum: 17 }), default: 15, doc: 'scrypt\'s cost for new password hashes (operators, portal users) as log2 of N: each step doubles the time and memory of hashing a password (15: 32 MiB, about 0.1 s); a hash keeps the cost it was made with. Production refuses less than 15 (docs/security.md, "Passwords")' },
  TOKEN_RATE_LIMIT_PER_MINUTE: { schema: PositiveInt, default: 60, doc: 'token requests per minute per client and per IP (and per IP on the operators\' /ops/v1/token)' },
  MAX_IN_FLIGHT_REQUESTS: { schema: PositiveInt, default: 256, doc: 'requests one process works on at once; the next is answered 503 SERVICE_UNAVAILABLE with Retry-After: 1 at once (/health and /ready are never refused)' },
  JOB_LEASE_SECONDS: { schema: Type.Integer({ minimum: 2 }), default: 60, doc: 'how long a claimed job is held before another worker may take it' },
  JOB_POLL_MILLISECONDS: { schema: Type.Integer({ minimum: 10 }), default: 250, doc: 'worker poll interval when idle' },
  METRICS_ADDRESS: {
    schema: Type.String({ pattern: '^(?:off|(?:[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):[0-9]{1,5})$' }),
    default: '127.0.0.1:9464',
    doc: 'where `pvs serve` answers Prometheus at /metrics: host:port of a listener of its own, never the API\'s port; `off` turns it off. Several processes on one host each need their own port (docs/operations.md, "Metrics")',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: { schema: Type.String({ pattern: '^https?://[^/]+(/.*)?$' }), default: undefined, doc: 'an OpenTelemetry collector\'s OTLP/HTTP base address (…:4318): traces are sent to its /v1/traces. Unset (and no OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) means no tracing, at no cost (docs/operations.md, "Traces")' },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { schema: Type.String({ pattern: '^https?://[^/]+(/.*)?$' }), default: undefined, doc: 'the full address traces are sent to, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT' },
  OTEL_EXPORTER_OTLP_PROTOCOL: { schema: Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')]), default: 'http/protobuf', doc: 'OTLP over HTTP as `http/protobuf` or `http/json` (gRPC is not offered: a collector takes both HTTP forms on 4318)' },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: { schema: Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')]), default: undefined, doc: 'the same for traces alone; wins over OTEL_EXPORTER_OTLP_PROTOCOL' },
  OTEL_TRACES_EXPORTER: { schema: Type.Union([Type.Literal('otlp'), Type.Literal('none')]), default: 'otlp', doc: '`none` turns tracing off whatever the endpoint says' },
  OTEL_SDK_DISABLED: { schema: Type.Boolean(), default: false, doc: '`true` turns tracing off whatever the endpoint says' },
  OTEL_SERVICE_NAME: { schema: Type.String({ minLength: 1, maxLength: 100 }), default: 'pvs', doc: 'service.name of every span (OTEL_RESOURCE_ATTRIBUTES adds others, such as deployment.environment.name)' },
  OTEL_PROPAGATORS: { schema: Type.String({ pattern: '^(?:tracecontext|baggage|none)(?:,(?:tracecontext|baggage|none))*$' }), default: 'none', doc: 'trace context taken from requests and sent with outgoing calls: `none` by default, since partners, people and providers are outside PVS; `tracecontext` behind a gateway of your own that starts traces (docs/operations.md, "Traces")' },
  SHUTDOWN_TIMEOUT_SECONDS: { schema: PositiveInt, default: 20, doc: 'time given to in-flight requests and jobs on SIGTERM' },
  PAYMENT_GATEWAY: { schema: Type.Union([Type.Literal('sandbox'), Type.Literal('stripe')]), default: 'sandbox', doc: 'who holds contacts\' cards: `sandbox` (test cards only) or `stripe`' },
  STRIPE_SECRET_KEY: { schema: Type.String({ pattern: '^(sk|rk)_(test|live)_' }), default: undefined, doc: 'Stripe secret key, with PAYMENT_GATEWAY=stripe' },
  STRIPE_PUBLISHABLE_KEY: { schema: Type.String({ pattern: '^pk_(test|live)_' }), default: undefined, doc: 'Stripe publishable key for the hosted card page, with PAYMENT_GATEWAY=stripe' },
  STRIPE_API_BASE: { schema: Type.String({ pattern: '^https?://[^/]+$' }), default: undefined, doc: 'another address for the Stripe API (a local test server); unset means Stripe itself' },
  BILLING_RUN_WINDOW: { schema: Duration, default: undefined, doc: 'how long a contact\'s billing run gathers charges before the card is charged (`10s`, `30m`, `24h`); 10 s in sandbox, 24 h in production' },
  BILLING_SWEEP_AFTER_HOURS: { schema: Type.Integer({ minimum: 1, maximum: 720 }), default: 27, doc: 'a billing run still charging the card this long after its attempt began is settled from the gateway\'s record of the charge (the capture job retries for 25 h 42 min)' },
  CARD_LINK_HOURS: { schema: Type.Integer({ minimum: 1, maximum: 168 }), default: 24, doc: 'how long a card link stays usable' },
  PAYMENT_MAX_AMOUNT: { schema: Type.Integer({ minimum: 100, maximum: 1_000_000_000 }), default: 10_000_000, doc: 'the largest ATO payment a partner may create, in cents (default $100,000; at most $10,000,000)' },
  VERIFICATION_MAX_ATTEMPTS: { schema: Type.Integer({ minimum: 1, maximum: 10 }), default: 3, doc: 'attempts a person has at identity verification before they are LOCKED_OUT' },
  VERIFICATION_LINK_DAYS: { schema: Type.Integer({ minimum: 1, maximum: 30 }), default: 7, doc: 'how long a verification link stays usable before it is opened' },
  IDENTITY_ABANDONED_DAYS: { schema: Type.Integer({ minimum: 1, maximum: 365 }), default: 30, doc: 'a person who gave something at identity verification but never submitted is forgotten at the identity provider once they have had no working link or session for this many days; a later link starts them afresh (decision 132)' },
  IDENTITY_RETENTION_DAYS: { schema: Type.Integer({ minimum: 30, maximum: 36_500 }), default: 2557, doc: 'how long the identity provider keeps what a person gave after their outcome (or after they stopped, having submitted), before PVS has it forgotten; default seven years, for the partner\'s AML/CTF record keeping (decision 132)' },
  PAYMENT_LINK_HOURS: { schema: Type.Integer({ minimum: 1, maximum: 2_160 }), default: 336, doc: 'how long a hosted payment link stays usable (default 14 days; regenerating gives a new one)' },
  SCREENING_MATCH_THRESHOLD: { schema: Type.Number({ minimum: 0.5, maximum: 1 }), default: 0.8, doc: 'screening score (0.5 to 1) at or above which a name is a possible match' },
  MONITORING_BATCH_SIZE: {
    schema: Type.Integer({ minimum: 1, maximum: 10000 }),
    default: 500,
    doc: 'monitored contacts re-screened per transaction when a list version arrives; a crash resumes after the last batch committed',
  },
  SCREENING_REFRESH_SECONDS: { schema: Type.Integer({ minimum: 0, maximum: 3600 }), default: 10, doc: 'how often each node checks for a newer screening list version' },
  REGISTERS: { schema: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]), default: 'sandbox', doc: 'business registers a lookup reads: `sandbox` (CONTRACT §13 test values and synthetic companies) or `live` (ABR ABN Lookup, the imported ASIC company dataset)' },
  ABR_GUID: { schema: Type.String({ pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' }), default: undefined, doc: 'the authentication GUID ABR issued for ABN Lookup web services, with REGISTERS=live' },
  ABR_BASE_URL: { schema: Type.String({ pattern: '^https?://[^/]+(/.*)?$' }), default: undefined, doc: 'another address for ABR\'s JSON services (a local test server); unset means https://abr.business.gov.au/json' },
  IDENTITY_PROVIDER: { schema: Type.Union([Type.Literal('sandbox'), Type.Literal('onfido'), Type.Literal('none')]), default: undefined, doc: 'who keeps the details, documents and selfies of people being verified and runs their checks: `sandbox` (CONTRACT §13 last names; the sandbox default), `onfido` (docs/providers.md) or `none` (the production default: every identity step answers that the service is unavailable)' },
  ONFIDO_API_TOKEN: { schema: Type.String({ pattern: '^api_(sandbox|live)(_[a-z]{2})?\\.[A-Za-z0-9._-]{8,}$' }), default: undefined, doc: 'Onfido API token (`api_live.…`; `api_sandbox.…` outside production), with IDENTITY_PROVIDER=onfido' },
  ONFIDO_REGION: { schema: Type.Union([Type.Literal('eu'), Type.Literal('us'), Type.Literal('ca')]), default: undefined, doc: 'the Onfido region the account lives in, and so where people\'s details are processed (`eu`, `us` or `ca`), with IDENTITY_PROVIDER=onfido; the consent step names it' },
  ONFIDO_WEBHOOK_TOKEN: { schema: Type.String({ pattern: '^[A-Za-z0-9_-]{16,}$' }), default: undefined, doc: 'the token of the Onfido webhook that calls `POST /providers/onfido/webhooks`, which signs its `X-SHA2-Signature`, with IDENTITY_PROVIDER=onfido' },
  ONFIDO_API_URL: { schema: Type.String({ pattern: '^https?://[^/]+(/.*)?$' }), default: undefined, doc: 'another address for Onfido\'s API, ending in its version (a proxy, or the local stand-in: docs/providers.md); unset means the region\'s `https://api.<region>.onfido.com/v3.6`; plain http only on a loopback address' },
  EVIDENCE_DETAIL_ENABLED: { schema: Type.Boolean(), default: true, doc: '`false` makes the evidence endpoints (document-details, aml-matches) answer UPSTREAM_UNAVAILABLE; an operator can change it while PVS runs, without a restart (runtime setting, docs/operators.md), and that change wins until it is reset' },
  DEED_EXTRACTOR: { schema: Type.Union([Type.Literal('rules'), Type.Literal('llm')]), default: 'rules', doc: 'what reads parties from a deed: `rules` (in-house, nothing leaves PVS) or `llm` (an OpenAI-compatible chat endpoint, DEED_LLM_URL: the deed text is sent there; every quote it gives is checked against its page)' },
  DEED_LLM_URL: { schema: Type.String({ pattern: '^https?://' }), default: undefined, doc: 'the OpenAI-compatible API base (…/v1), with DEED_EXTRACTOR=llm' },
  DEED_LLM_MODEL: { schema: Type.String({ minLength: 1 }), default: undefined, doc: 'the model name, with DEED_EXTRACTOR=llm' },
  DEED_LLM_API_KEY: { schema: Type.String({ minLength: 1 }), default: undefined, doc: 'its bearer key, if it needs one' },
  DEED_DEADLINE_SECONDS: { schema: Type.Integer({ minimum: 1, maximum: 3600 }), default: 900, doc: 'how long reading a deed (text layer, OCR, TFN scan) may take before the analysis fails TIMED_OUT; 150 scanned pages took 333 s on 2 quiet cores and 750 s on busy ones (bench/README.md)' },
  DEED_OCR_CONCURRENCY: { schema: Type.Integer({ minimum: 0, maximum: 64 }), default: 0, doc: 'pages of one deed read by OCR at once; 0 means one per core' },
  LOOKUP_READ_BUDGET: { schema: Type.Integer({ minimum: 1, maximum: 100_000 }), default: 50, doc: 'registry and ownership reads allowed per lookup per UTC day (a matching If-None-Match costs none)' },
  WEB_SESSION_IDLE_MINUTES: { schema: Type.Integer({ minimum: 5, maximum: 1440 }), default: 30, doc: 'a portal or console session unused this long ends; sign in again' },
  WEB_SESSION_HOURS: { schema: Type.Integer({ minimum: 1, maximum: 168 }), default: 12, doc: 'a portal or console session ends this long after sign-in, however much it is used' },
  MFA_STEP_UP_MINUTES: { schema: Type.Integer({ minimum: 1, maximum: 720 }), default: 15, doc: 'the console asks for a fresh second-factor code before showing identity documents or AML evidence when the session\'s last one is older than this (docs/security.md)' },
  SIGN_IN_RATE_LIMIT_PER_MINUTE: { schema: PositiveInt, default: 30, doc: 'posts of the portal\'s and the console\'s sign-in, password and second-factor forms per minute per client address, whatever the account; more are answered 429 with Retry-After (docs/security.md)' },
  SIGNING_KEY_ROTATION_DAYS: { schema: Type.Integer({ minimum: 0, maximum: 3650 }), default: 0, doc: 'a new access-token signing key is made when the newest is this many days old (checked hourly); the key it replaces keeps verifying, and stays in the JWKS, until its tokens have expired plus the JWKS cache time. 0 means never: only `pvs keys rotate-signing` rotates (docs/security.md, "Signing keys")' },
  PRICE_LOOKUP_FULL: { schema: Cents, default: 1500, doc: 'price in cents (AUD) of a FULL business lookup' },
  PRICE_LOOKUP_ASIC_ONLY: { schema: Cents, default: 500, doc: 'price in cents of an ASIC_ONLY business lookup' },
  PRICE_LOOKUP_UBO_ONLY: { schema: Cents, default: 1200, doc: 'price in cents of a UBO_ONLY business lookup' },
  PRICE_DEED_ANALYSIS: { schema: Cents, default: 2500, doc: 'price in cents of a completed deed analysis' },
  PRICE_VERIFICATION_INDIVIDUAL: { schema: Cents, default: 900, doc: 'price in cents of verifying one individual (charged at the first submitted attempt)' },
} satisfies Record<string, { schema: TSchema; default: unknown; doc: string }>;

/** Settings whose values are keys: an error about one never shows it. */
const secretSettings = new Set(['SECRET_KEY', 'PREVIOUS_SECRET_KEYS', 'STRIPE_SECRET_KEY', 'ABR_GUID', 'DEED_LLM_API_KEY', 'ONFIDO_API_TOKEN', 'ONFIDO_WEBHOOK_TOKEN']);

type Settings = typeof settings;
type Parsed = { [K in keyof Settings]: Settings[K]['default'] extends undefined ? Static<Settings[K]['schema']> | undefined : Static<Settings[K]['schema']> };

export type Config = Readonly<
  Omit<Parsed, 'BILLING_RUN_WINDOW' | 'IDENTITY_PROVIDER' | 'PREVIOUS_SECRET_KEYS'> & {
    PUBLIC_BASE_URL: string;
    SECRET_KEY: string;
    PREVIOUS_SECRET_KEYS: readonly string[];
    BILLING_RUN_WINDOW_SECONDS: number;
    IDENTITY_PROVIDER: 'sandbox' | 'onfido' | 'none';
  }
>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const settingDocs = Object.entries(settings).map(([name, s]) => ({ name, default: s.default, doc: s.doc }));

/** Parses the environment against the schema; the first bad value stops the start, named. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      out[name] = setting.default;
      continue;
    }
    const value = Value.Convert(setting.schema, raw);
    if (!Value.Check(setting.schema, value)) {
      const first = Value.Errors(setting.schema, value).First();
      // A secret's value is never repeated: a start's error reaches logs and terminals.
      const shown = secretSettings.has(name) ? '(not shown: it is a secret)' : JSON.stringify(raw);
      throw new ConfigError(`${name}: invalid value ${shown} (${first?.message ?? 'does not match'}; ${setting.doc})`);
    }
    out[name] = value;
  }
  const parsed = out as Parsed;
  if (parsed.ENVIRONMENT === 'production') {
    for (const name of ['SECRET_KEY', 'DATABASE_URL'] as const) {
      if (!parsed[name]) throw new ConfigError(`${name}: required when ENVIRONMENT=production`);
    }
  }
  if (parsed.ENVIRONMENT === 'production' && parsed.PASSWORD_HASH_COST < defaultPasswordHashCost) {
    throw new ConfigError(`PASSWORD_HASH_COST: production refuses less than ${defaultPasswordHashCost}; a cheaper hash is cheaper to guess`);
  }
  if (parsed.STORAGE === 's3' && !parsed.S3_BUCKET) throw new ConfigError('S3_BUCKET: required when STORAGE=s3');
  if (parsed.DEED_EXTRACTOR === 'llm' && (!parsed.DEED_LLM_URL || !parsed.DEED_LLM_MODEL)) throw new ConfigError('DEED_LLM_URL and DEED_LLM_MODEL: required when DEED_EXTRACTOR=llm');
  if (parsed.ENVIRONMENT === 'production' && parsed.PAYMENT_GATEWAY === 'sandbox') throw new ConfigError('PAYMENT_GATEWAY: production refuses the sandbox gateway; set stripe');
  if (parsed.PAYMENT_GATEWAY === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'] as const) {
      if (!parsed[name]) throw new ConfigError(`${name}: required when PAYMENT_GATEWAY=stripe`);
    }
  }
  if (parsed.ENVIRONMENT === 'production' && parsed.REGISTERS === 'sandbox') throw new ConfigError('REGISTERS: production refuses the sandbox registers; set live');
  if (parsed.REGISTERS === 'live' && !parsed.ABR_GUID) throw new ConfigError('ABR_GUID: required when REGISTERS=live');
  if (parsed.ENVIRONMENT === 'production' && parsed.IDENTITY_PROVIDER === 'sandbox') {
    throw new ConfigError('IDENTITY_PROVIDER: production refuses the sandbox identity provider; set onfido');
  }
  if (parsed.IDENTITY_PROVIDER === 'onfido') onfidoProblems(parsed);
  const { BILLING_RUN_WINDOW: window, IDENTITY_PROVIDER: identity, PREVIOUS_SECRET_KEYS: previousText, ...rest } = parsed;
  const identityProvider = identity ?? (parsed.ENVIRONMENT === 'sandbox' ? 'sandbox' : 'none');
  const windowSeconds = window === undefined ? (parsed.ENVIRONMENT === 'sandbox' ? 10 : 86_400) : durationSeconds(window);
  if (windowSeconds < 1) throw new ConfigError('BILLING_RUN_WINDOW: must be at least one second');
  if (parsed.METRICS_ADDRESS !== 'off') {
    const { port } = metricsListen(parsed.METRICS_ADDRESS);
    if (port > 65535) throw new ConfigError('METRICS_ADDRESS: the port must be 0 to 65535');
    // Metrics describe the service to its operator: never on the port partners reach.
    if (port !== 0 && port === parsed.PORT) throw new ConfigError(`METRICS_ADDRESS: port ${port} is the API's (PORT); give metrics a listener of their own`);
  }
  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  const secretKey = parsed.SECRET_KEY ?? readOrCreateSandboxSecret(parsed.DATA_DIR);
  // In sandbox, `pvs keys rotate` keeps the keys it replaced beside the generated one.
  const previousKeys = previousText?.split(',') ?? (parsed.SECRET_KEY === undefined ? readSandboxPreviousKeys(parsed.DATA_DIR, secretKey) : []);
  if (previousKeys.includes(secretKey)) throw new ConfigError('PREVIOUS_SECRET_KEYS: holds SECRET_KEY itself; list only the keys it replaced');
  if (new Set(previousKeys).size !== previousKeys.length) throw new ConfigError('PREVIOUS_SECRET_KEYS: lists a key twice');
  return Object.freeze({
    ...rest,
    PUBLIC_BASE_URL: publicBaseUrl,
    SECRET_KEY: secretKey,
    PREVIOUS_SECRET_KEYS: Object.freeze(previousKeys),
    BILLING_RUN_WINDOW_SECONDS: windowSeconds,
    IDENTITY_PROVIDER: identityProvider,
  });
}

/** Onfido's settings, all required with it; production refuses a sandbox token, whose checks are made up. */
function onfidoProblems(parsed: Parsed): void {
  for (const name of ['ONFIDO_API_TOKEN', 'ONFIDO_REGION', 'ONFIDO_WEBHOOK_TOKEN'] as const) {
    if (!parsed[name]) throw new ConfigError(`${name}: required when IDENTITY_PROVIDER=onfido`);
  }
  if (parsed.ENVIRONMENT === 'production' && parsed.ONFIDO_API_TOKEN!.startsWith('api_sandbox')) {
    throw new ConfigError('ONFIDO_API_TOKEN: production refuses an Onfido sandbox token (api_sandbox.…): its checks are simulated; use a live token');
  }
  const url = parsed.ONFIDO_API_URL && new URL(parsed.ONFIDO_API_URL);
  if (url && url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    throw new ConfigError('ONFIDO_API_URL: must be https, except on a loopback address (a local stand-in)');
  }
}

/** METRICS_ADDRESS as a host (brackets off an IPv6 address) and a port. */
export function metricsListen(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) };
}

function durationSeconds(text: string): number {
  const unit = text.at(-1);
  const value = Number.parseInt(text, 10);
  return unit === 'h' ? value * 3600 : unit === 'm' ? value * 60 : value;
}

export const sandboxKeyFile = (dataDir: string) => path.join(dataDir, 'secret-key');
export const previousKeysFile = (dataDir: string) => path.join(dataDir, 'previous-secret-keys');

/** The keys `pvs keys rotate` replaced, one per line (the current one, after a crash mid-rotation, left out). */
function readSandboxPreviousKeys(dataDir: string, current: string): string[] {
  const file = previousKeysFile(dataDir);
  if (!existsSync(file)) return [];
  return [...new Set(readFileSync(file, 'utf8').split('\n').map((line) => line.trim()))].filter((key) => key.length >= 32 && key !== current);
}

/** In sandbox the root secret is generated once and kept beside the embedded database. */
function readOrCreateSandboxSecret(dataDir: string): string {
  const file = sandboxKeyFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process started at the same moment and wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}

/** Loads `.env` from the working directory when present; real environment variables win. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
