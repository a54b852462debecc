// `pvs listen`'s settings: where PVS is and whose credentials to use, each taken from the first place
// that has it (a flag, the environment, then the local sandbox's own files), together with the place it
// came from, so that the start-up line can say which was used. The configuration (DATA_DIR, PORT,
// PUBLIC_BASE_URL) is read only when flags and environment leave something open: a partner pointing
// `pvs listen` at a remote PVS needs no PVS configuration of its own.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { readServerInfo } from '../server-info.ts';

/** What commander hands the action: every value as typed. */
export interface ListenFlags {
  api?: string;
  partner?: string;
  clientId?: string;
  clientSecret?: string;
  port: string;
  forwardTo?: string;
  json?: boolean;
  keep?: boolean;
}

export interface PartnerCredentials {
  partnerId: string;
  clientId: string;
  clientSecret: string;
}

export interface ListenSettings {
  apiUrl: string;
  /** Where apiUrl came from, for the start-up line. */
  apiSource: string;
  credentials: PartnerCredentials;
  /** Where the credentials came from, for the start-up line and the error that refuses them. */
  credentialsSource: string;
  port: number;
  forwardTo?: string;
  json: boolean;
  keep: boolean;
}

/** An expected failure: its message is the whole story, printed without a stack. */
export class ListenError extends Error {
  override name = 'ListenError';
}

const credentialFields = [
  { key: 'partnerId', option: 'partner', flag: '--partner', variable: 'PVS_PARTNER_ID' },
  { key: 'clientId', option: 'clientId', flag: '--client-id', variable: 'PVS_CLIENT_ID' },
  { key: 'clientSecret', option: 'clientSecret', flag: '--client-secret', variable: 'PVS_CLIENT_SECRET' },
] as const;

export function resolveListenSettings(flags: ListenFlags, env: Record<string, string | undefined>, loadConfig: () => Config): ListenSettings {
  let config: Config | undefined;
  const lazyConfig = () => (config ??= loadConfig());
  const port = parsePort(flags.port);
  const forwardTo = flags.forwardTo === undefined ? undefined : httpUrl(flags.forwardTo, '--forward-to');
  const { credentials, source: credentialsSource } = resolveCredentials(flags, env, lazyConfig);
  const { url: apiUrl, source: apiSource } = resolveApi(flags, env, lazyConfig);
  return { apiUrl, apiSource, credentials, credentialsSource, port, forwardTo, json: Boolean(flags.json), keep: Boolean(flags.keep) };
}

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new ListenError(`--port takes a port number from 1 to 65535, not ${JSON.stringify(text)}`);
  return port;
}

function httpUrl(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ListenError(`${name} takes an http or https URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ListenError(`${name} takes an http or https URL, not ${JSON.stringify(text)}`);
  return url.toString();
}

function resolveCredentials(flags: ListenFlags, env: Record<string, string | undefined>, config: () => Config): { credentials: PartnerCredentials; source: string } {
  const found = credentialFields.map((field) => {
    const fromFlag = flags[field.option];
    if (fromFlag) return { field, value: fromFlag, from: field.flag };
    const fromEnv = env[field.variable];
    return fromEnv ? { field, value: fromEnv, from: field.variable } : { field, value: undefined, from: undefined };
  });
  if (found.some((f) => f.value !== undefined)) {
    const missing = found.filter((f) => f.value === undefined).map((f) => `${f.field.flag} (or ${f.field.variable})`);
    if (missing.length) throw new ListenError(`Missing ${missing.join(' and ')}: give the partner id, client id and client secret together`);
    const credentials = Object.fromEntries(found.map((f) => [f.field.key, f.value])) as unknown as PartnerCredentials;
    return { credentials, source: found.map((f) => f.from).join(', ') };
  }

  const file = path.join(config().DATA_DIR, 'demo-partner.json');
  if (!existsSync(file)) {
    throw new ListenError(
      [
        'No partner credentials to listen with. Pass --partner ptn_… --client-id cli_… --client-secret …',
        '(or set PVS_PARTNER_ID, PVS_CLIENT_ID and PVS_CLIENT_SECRET).',
        `A local sandbox PVS (\`npm start\`) keeps its demo partner's in ${file}, which is not there.`,
      ].join('\n'),
    );
  }
  return { credentials: readDemoPartner(file), source: file };
}

function readDemoPartner(file: string): PartnerCredentials {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ListenError(`Cannot read the demo partner's credentials in ${file}: ${(error as Error).message}`);
  }
  const { partnerId, clientId, clientSecret } = value ?? {};
  if (typeof partnerId !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    throw new ListenError(`${file} does not hold partnerId, clientId and clientSecret; pass --partner, --client-id and --client-secret instead`);
  }
  return { partnerId, clientId, clientSecret };
}

function resolveApi(flags: ListenFlags, env: Record<string, string | undefined>, config: () => Config): { url: string; source: string } {
  const bare = (url: string) => url.replace(/\/+$/, '');
  if (flags.api) return { url: bare(httpUrl(flags.api, '--api')), source: '--api' };
  if (env.PVS_API_URL) return { url: bare(httpUrl(env.PVS_API_URL, 'PVS_API_URL')), source: 'PVS_API_URL' };
  const { DATA_DIR, PUBLIC_BASE_URL } = config();
  // The server serving this DATA_DIR says where it listens; its admin endpoint is its API's own port.
  const server = readServerInfo(DATA_DIR);
  if (server) return { url: bare(server.adminUrl), source: `the PVS serving ${DATA_DIR}, pid ${server.pid}` };
  return { url: PUBLIC_BASE_URL, source: env.PUBLIC_BASE_URL ? 'PUBLIC_BASE_URL' : 'http://localhost:PORT, as `pvs serve` would' };
}
