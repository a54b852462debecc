// `pvs serve`: the API and the worker in one process (or one of them with --role), with a clean
// shutdown: in-flight requests finish, running jobs finish or are released, the database closes.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.ts';
import { ConfigError, metricsListen, type Config } from '../config.ts';
import type { HttpApp } from '../platform/http/types.ts';
import type { Worker } from '../platform/jobs/worker.ts';
import type { Dispatcher } from '../modules/webhooks/dispatcher.ts';
import { createServices, type Services } from '../services.ts';
import { countCompanies } from '../providers/register/asic-dataset/asic-companies.repository.ts';
import { serverInfoPath, writeServerInfo } from './server-info.ts';
import { startMetricsServer, type MetricsServer } from '../platform/metrics/metrics-server.ts';
import { startTracing, tracesEndpoint, type Tracing } from '../platform/tracing/tracing.ts';

export type Role = 'all' | 'api' | 'worker';

const loopbackHosts = new Set(['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1']);

/** A line of what the start is doing, printed as it begins (the banner follows when it is done). */
function say(line: string): void {
  process.stdout.write(`  ${line}\n`);
}

async function ensureDemoPartner(services: Services): Promise<string[]> {
  const { config } = services;
  if (config.ENVIRONMENT !== 'sandbox' || (await services.partners.count()) > 0) return [];
  say('creating the demo partner');
  // Monitoring-eligible, so that every step of the README's tour works for it (decision 124).
  const demo = await services.partners.create({ name: 'Demo Partner', monitoring: true });
  // Sandbox convenience for the README tour; the secret is hashed in the database like any other.
  const file = path.join(config.DATA_DIR, 'demo-partner.json');
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return [
    'A demo partner was created (its secret is shown this once, and kept in ' + file + '):',
    `  partnerId     ${demo.partnerId}`,
    `  clientId      ${demo.clientId}`,
    `  clientSecret  ${demo.clientSecret}`,
    'Sign in to its portal with a login of your own (the password printed is one-time):',
    `  npx pvs portal-user create --partner ${demo.partnerId} --email you@example.com`,
    'and to the operator console with:',
    '  npx pvs operator create --email you@example.com',
  ];
}

/** The list the sandbox screens against until an operator imports real ones (CONTRACT §11, §13). */
export const sandboxScreeningFixture = fileURLToPath(new URL('../../fixtures/screening/opensanctions-targets.simple.csv', import.meta.url));

async function ensureSandboxScreeningList(services: Services): Promise<string[]> {
  if (services.config.ENVIRONMENT !== 'sandbox' || (await services.screening.status()).version !== null) return [];
  say('loading the sandbox screening list');
  const imported = await services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  return [`Screening: the sandbox fixture list (${imported.entries} entries) was loaded as list version ${imported.version}`];
}

/** Which registers lookups read; on the live ones, a warning while no ASIC dataset is loaded. */
async function registersLine(services: Services): Promise<string[]> {
  if (services.config.REGISTERS === 'sandbox') return ['Registers: sandbox (the test numbers in docs/lookups.md, and a synthetic business for any other valid number)'];
  const companies = await countCompanies(services.db);
  if (companies > 0) return [`Registers: live (ABR ABN Lookup; ASIC company dataset of ${companies} companies)`];
  return ['Registers: live (ABR ABN Lookup). No ASIC company dataset is loaded: company lookups fail REGISTER_UNAVAILABLE until `pvs registers import-asic FILE`'];
}

/** Who checks people's identities; with Onfido, where, and the webhook address its dashboard needs. */
function identityLine(config: Config): string[] {
  switch (config.IDENTITY_PROVIDER) {
    case 'sandbox':
      return [];
    case 'none':
      return ['Identity: none (IDENTITY_PROVIDER): every verification step answers that the service is unavailable; set onfido (docs/providers.md)'];
    case 'onfido':
      return [
        `Identity: Onfido, region ${config.ONFIDO_REGION}${config.ONFIDO_API_URL ? ` at ${config.ONFIDO_API_URL}` : ''}; its check.completed webhook goes to ${config.PUBLIC_BASE_URL}/providers/onfido/webhooks`,
      ];
  }
}

export async function runServe(config: Config, role: Role): Promise<void> {
  if (role !== 'all' && !config.DATABASE_URL) {
    throw new ConfigError('DATABASE_URL: --role api and --role worker need PostgreSQL; the embedded database serves one process (use `pvs serve`)');
  }
  // A signal during the start (migrations, the demo partner) is honoured once the start is done, so
  // the embedded database is never left open mid-write; a second one exits at once.
  let earlySignal: string | undefined;
  const deferSignal = (signal: string) => {
    if (earlySignal) process.exit(1);
    earlySignal = signal;
  };
  process.on('SIGINT', deferSignal);
  process.on('SIGTERM', deferSignal);
  const stopDeferring = () => {
    process.off('SIGINT', deferSignal);
    process.off('SIGTERM', deferSignal);
  };
  let services: Services;
  let tracing: Tracing | undefined;
  try {
    // Before the services, which trace their statements and provider calls once it is on.
    tracing = await startTracing(config);
    say(config.DATABASE_URL ? 'connecting to PostgreSQL and applying pending migrations' : 'opening the embedded database and applying pending migrations (the first start creates it)');
    services = await createServices(config);
  } catch (error) {
    await tracing?.shutdown();
    stopDeferring();
    throw error;
  }
  const { logger } = services;
  let app: HttpApp | undefined;
  let worker: Worker | undefined;
  let dispatcher: Dispatcher | undefined;
  let port = config.PORT;
  let startLines: string[] = [];
  let metricsServer: MetricsServer | undefined;

  try {
    // On PostgreSQL nothing else has created DATA_DIR (PGlite's lock and the sandbox secret-key file do).
    mkdirSync(config.DATA_DIR, { recursive: true });
    // Every role answers Prometheus, on a listener of its own (METRICS_ADDRESS), before the rest starts.
    if (config.METRICS_ADDRESS !== 'off') {
      services.metrics.collectProcessMetrics();
      metricsServer = await startMetricsServer(services.metrics, metricsListen(config.METRICS_ADDRESS), (error) => logger.error({ err: error }, 'metrics could not be collected'));
    }
    if (role !== 'worker') {
      // Before listening, so that /ready answers only once the start is complete. Where the API runs
      // only: a worker started beside it must not race it to a second demo partner.
      startLines = [...(await ensureDemoPartner(services)), ...(await ensureSandboxScreeningList(services)), ...(await registersLine(services)), ...identityLine(services.config)];
      app = await buildApp(services);
      await app.listen({ port: config.PORT, host: config.HOST });
      port = (app.server.address() as AddressInfo).port;
    }
    if (role !== 'api') {
      worker = services.createWorker();
      worker.start();
      dispatcher = services.createDispatcher();
      dispatcher.start();
    }
  } catch (error) {
    await app?.close();
    await metricsServer?.close();
    await services.close();
    await tracing?.shutdown();
    stopDeferring();
    throw error;
  }

  const infoFile = serverInfoPath(config.DATA_DIR);
  if (app) {
    const adminHost = loopbackHosts.has(config.HOST) ? '127.0.0.1' : config.HOST;
    writeServerInfo(config.DATA_DIR, { pid: process.pid, adminUrl: `http://${adminHost.includes(':') ? `[${adminHost}]` : adminHost}:${port}` });
  }

  const banner = [
    `PVS ${role === 'all' ? '' : `(${role}) `}running in ${config.ENVIRONMENT} on ${services.db.kind === 'pglite' ? `embedded PGlite (${config.DATA_DIR})` : 'PostgreSQL'}`,
    ...(app
      ? [
          `  API      ${config.PUBLIC_BASE_URL}`,
          `  Docs     ${config.PUBLIC_BASE_URL}/docs`,
          `  Guides   ${config.PUBLIC_BASE_URL}/docs/guides`,
          `  Portal   ${config.PUBLIC_BASE_URL}/portal`,
          `  Console  ${config.PUBLIC_BASE_URL}/console`,
        ]
      : []),
    ...(metricsServer ? [`  Metrics  ${metricsServer.url}`] : []),
    ...(tracing ? [`  Traces   ${tracesEndpoint(config) ?? ''}`] : []),
    ...startLines,
  ];
  process.stdout.write(`${banner.join('\n')}\n`);
  logger.info({ role, port, database: services.db.kind }, 'started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn('second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs + 5_000).unref();
    try {
      await app?.close();
      await Promise.all([worker?.stop(timeoutMs), dispatcher?.stop(timeoutMs)]);
      await metricsServer?.close();
      if (app && existsSync(infoFile)) rmSync(infoFile, { force: true });
      await services.close();
      // Last, so that the spans of the shutdown's own work are sent too.
      await tracing?.shutdown();
      clearTimeout(force);
      logger.info('stopped');
      process.exitCode = 0;
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  stopDeferring();
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  if (earlySignal) void stop(earlySignal);
}
