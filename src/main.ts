// The `pvs` command. It loads only what the command it runs needs: the services and the HTTP server
// are imported by the action that uses them, so `pvs --help` pays for commander alone and a command
// answered by the running server never opens the database (test/cli-loads.test.ts holds it to that).
import path from 'node:path';
import { Command, Option } from 'commander';
import type { ListenFlags } from './cli/listen/listen-options.ts';
import type { Role } from './cli/serve.ts';
import type { Config } from './config.ts';
import type { ListStatus, SearchOutput } from './modules/screening/screening.service.ts';
import type { RotatedKey } from './cli/rotate-sandbox-key.ts';
import type { KeyStatus } from './platform/keys/key-usage.ts';
import type { RuntimeSetting } from './modules/settings/runtime-settings.ts';
import type { AsicImportResult } from './providers/register/asic-dataset/asic-dataset-import.ts';

async function config(): Promise<Config> {
  const { loadConfig, loadDotEnv } = await import('./config.ts');
  loadDotEnv();
  return loadConfig();
}

async function runAdminCommand(name: string, input: Record<string, unknown>): Promise<unknown> {
  const client = await import('./cli/admin-client.ts');
  return client.runAdminCommand(await config(), name, input);
}

/** The first line `pvs serve` prints, before anything slow. */
function startingLine(loaded: Config, role: Role): string {
  const where = loaded.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite (${loaded.DATA_DIR})`;
  return `Starting PVS${role === 'all' ? '' : ` (${role})`} in ${loaded.ENVIRONMENT} on ${where}…`;
}

function print(result: unknown, json: boolean, human: (r: never) => string): void {
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${human(result as never)}\n`);
}

const program = new Command('pvs').description('PVS: the partner verification service').showHelpAfterError();

program
  .command('serve')
  .description('run the API, hosted pages and the background worker')
  .addOption(new Option('--role <role>', 'run only one part (needs DATABASE_URL)').choices(['all', 'api', 'worker']).default('all'))
  .action(async (options: { role: Role }) => {
    const loaded = await config();
    // Said before the server's code loads: a first start takes seconds, and silence reads as a hang.
    process.stdout.write(`${startingLine(loaded, options.role)}\n`);
    const { runServe } = await import('./cli/serve.ts');
    await runServe(loaded, options.role);
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const result = (await runAdminCommand('migrate', {})) as { applied: string[] };
    print(result, Boolean(options.json), (r: { applied: string[] }) => (r.applied.length ? `Applied ${r.applied.join(', ')}` : 'Nothing to apply: the database is up to date'));
  });

const partner = program.command('partner').description('channel partners');
partner
  .command('create')
  .description('create a channel partner with one API client')
  .requiredOption('--name <name>', 'display name')
  .option('--monitoring', 'eligible for monitoring events')
  .option('--commission-bps <n>', 'commission on ATO payments, in basis points of the amount (0 to 10000; default 0)')
  .option('--json', 'print one JSON object')
  .action(async (options: { name: string; monitoring?: boolean; commissionBps?: string; json?: boolean }) => {
    // A whole number is passed as one; anything else as typed, for the input check to name.
    const bps = options.commissionBps;
    const commissionBps = bps === undefined ? {} : { commissionBps: /^\d{1,9}$/.test(bps) ? Number(bps) : bps };
    const result = await runAdminCommand('partner-create', { name: options.name, monitoring: Boolean(options.monitoring), ...commissionBps });
    print(result, Boolean(options.json), (r: { partnerId: string; clientId: string; clientSecret: string; commissionBps: number }) =>
      [`partnerId     ${r.partnerId}`, `clientId      ${r.clientId}`, `clientSecret  ${r.clientSecret}   (shown once)`, `commission    ${r.commissionBps} bps`].join('\n'),
    );
  });

const operator = program.command('operator').description("PVS's own operators: staff who review verifications and decide alerts");
operator
  .command('create')
  .description('create an operator account; prints a one-time password, to be replaced at the first sign-in')
  .requiredOption('--email <email>', 'their email address, which they sign in with')
  .option('--json', 'print one JSON object')
  .action(async (options: { email: string; json?: boolean }) => {
    const result = await runAdminCommand('operator-create', { email: options.email });
    print(result, Boolean(options.json), (r: { operatorId: string; email: string; password: string }) =>
      [`operatorId  ${r.operatorId}`, `email       ${r.email}`, `password    ${r.password}   (one-time: shown once, replaced at the first sign-in)`].join('\n'),
    );
  });
operator
  .command('disable')
  .description('disable an operator account: it can no longer sign in, and its tokens stop working at once')
  .requiredOption('--email <email>', 'their email address')
  .option('--json', 'print one JSON object')
  .action(async (options: { email: string; json?: boolean }) => {
    const result = await runAdminCommand('operator-disable', { email: options.email });
    print(result, Boolean(options.json), (r: { operatorId: string; email: string; disabledAt: string }) => `Operator ${r.operatorId} (${r.email}) is disabled since ${r.disabledAt}`);
  });

operator
  .command('reset-mfa')
  .description('remove an operator\'s second factor and recovery codes (a lost phone): their sessions end, and they set up a new one at the next sign-in')
  .requiredOption('--email <email>', 'their email address')
  .option('--json', 'print one JSON object')
  .action(async (options: { email: string; json?: boolean }) => {
    const result = await runAdminCommand('operator-reset-mfa', { email: options.email });
    print(result, Boolean(options.json), (r: SecondFactorReset & { operatorId: string }) => formatReset(`Operator ${r.operatorId}`, r));
  });

const portalUser = program.command('portal-user').description("a partner's staff who sign in to the portal (/portal)");
portalUser
  .command('create')
  .description("create a portal login for a partner's staff member; prints a one-time password, to be replaced at the first sign-in")
  .requiredOption('--partner <id>', 'the partner (ptn_…) whose portal they sign in to')
  .requiredOption('--email <email>', 'their email address, which they sign in with')
  .option('--json', 'print one JSON object')
  .action(async (options: { partner: string; email: string; json?: boolean }) => {
    const result = await runAdminCommand('portal-user-create', { partnerId: options.partner, email: options.email });
    print(result, Boolean(options.json), (r: { portalUserId: string; partnerId: string; email: string; password: string }) =>
      [
        `portalUserId  ${r.portalUserId}`,
        `partnerId     ${r.partnerId}`,
        `email         ${r.email}`,
        `password      ${r.password}   (one-time: shown once, replaced at the first sign-in)`,
      ].join('\n'),
    );
  });
portalUser
  .command('disable')
  .description('disable a portal login: it can no longer sign in, and its sessions end at once')
  .requiredOption('--email <email>', 'their email address')
  .option('--json', 'print one JSON object')
  .action(async (options: { email: string; json?: boolean }) => {
    const result = await runAdminCommand('portal-user-disable', { email: options.email });
    print(result, Boolean(options.json), (r: { portalUserId: string; email: string; disabledAt: string }) => `Portal user ${r.portalUserId} (${r.email}) is disabled since ${r.disabledAt}`);
  });

portalUser
  .command('reset-mfa')
  .description('remove a portal user\'s second factor and recovery codes (a lost phone): their sessions end, and they may set up a new one (must, if their partner requires it)')
  .requiredOption('--email <email>', 'their email address')
  .option('--json', 'print one JSON object')
  .action(async (options: { email: string; json?: boolean }) => {
    const result = await runAdminCommand('portal-user-reset-mfa', { email: options.email });
    print(result, Boolean(options.json), (r: SecondFactorReset & { portalUserId: string }) => formatReset(`Portal user ${r.portalUserId}`, r));
  });

interface SecondFactorReset {
  email: string;
  hadSecondFactor: boolean;
  recoveryCodesRemoved: number;
  sessionsEnded: number;
}

function formatReset(who: string, r: SecondFactorReset): string {
  const what = r.hadSecondFactor ? `second factor and its ${r.recoveryCodesRemoved} recovery codes removed` : 'had no second factor; nothing to remove';
  return `${who} (${r.email}): ${what}; ${r.sessionsEnded} session${r.sessionsEnded === 1 ? '' : 's'} ended`;
}

const destination = program.command('destination').description('webhook destinations');
destination
  .command('create')
  .description("add a webhook destination to a partner; prints its id and signing secret (once)")
  .requiredOption('--partner <id>', 'the partner id (ptn_…)')
  .requiredOption('--url <url>', 'https URL (http to localhost in sandbox)')
  .option('--categories <list>', 'comma-separated categories (default: all)')
  .option('--json', 'print one JSON object')
  .action(async (options: { partner: string; url: string; categories?: string; json?: boolean }) => {
    const categories = options.categories?.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
    const result = await runAdminCommand('destination-create', { partnerId: options.partner, url: options.url, ...(categories ? { categories } : {}) });
    print(result, Boolean(options.json), (r: { id: string; secret: string; categories: string[] }) =>
      [`id          ${r.id}`, `secret      ${r.secret}   (shown once)`, `categories  ${r.categories.join(', ')}`].join('\n'),
    );
  });

program
  .command('listen')
  .description("receive a partner's webhooks on this machine from a sandbox PVS: registers a destination at http://localhost:PORT/webhooks, verifies and prints every delivery")
  .option('--api <url>', "PVS's address (default: $PVS_API_URL, else the PVS serving DATA_DIR, else PUBLIC_BASE_URL or http://localhost:$PORT)")
  .option('--partner <id>', 'the partner id, ptn_… (default: $PVS_PARTNER_ID, else DATA_DIR/demo-partner.json)')
  .option('--client-id <id>', 'its API client, cli_… (default: $PVS_CLIENT_ID)')
  .option('--client-secret <secret>', "the client's secret (default: $PVS_CLIENT_SECRET)")
  .option('--port <port>', 'the local port to receive on (127.0.0.1)', '4000')
  .option('--forward-to <url>', 'after verifying, forward each delivery (same body and headers) to this URL of your app')
  .option('--json', 'print each payload as indented JSON after its line')
  .option('--keep', 'keep the destination when stopping (it is removed by default)')
  .action(async (options: ListenFlags) => {
    const { runListen } = await import('./cli/listen/listen.ts');
    await runListen(options);
  });

const screening = program.command('screening').description('sanctions and PEP lists');
screening
  .command('import')
  .description('load a list file as a new list version (all or nothing)')
  .addOption(new Option('--format <format>', 'the file\'s format').choices(['dfat', 'opensanctions', 'csv']).makeOptionMandatory())
  .option('--list <name>', 'the list this file replaces (default: the format\'s name)')
  .option('--json', 'print one JSON object')
  .argument('<file>', 'the list file')
  .action(async (file: string, options: { format: string; list?: string; json?: boolean }) => {
    const input = { format: options.format, filePath: path.resolve(file), ...(options.list ? { list: options.list } : {}) };
    const result = await runAdminCommand('screening-import', input);
    print(result, Boolean(options.json), (r: { list: string; version: number; previousVersion: number | null; entries: number; unchanged: boolean }) =>
      r.unchanged
        ? `${file} is already in force as list "${r.list}" (${r.entries} entries); list version ${r.version} is unchanged`
        : `Imported ${r.entries} ${r.entries === 1 ? 'entry' : 'entries'} into list "${r.list}": list version ${r.version} is now in force (was ${r.previousVersion ?? 'none'}); monitored contacts are being re-screened in the background`,
    );
  });
screening
  .command('search')
  .description('screen one person or business against the current list version')
  .requiredOption('--name <name>', 'the name to screen')
  .option('--dob <date>', 'date of birth, YYYY-MM-DD (people)')
  .option('--country <code>', 'ISO 3166 alpha-2 country, e.g. RU')
  .addOption(new Option('--kind <kind>', 'what the name is').choices(['person', 'business']).default('person'))
  .option('--json', 'print one JSON object')
  .action(async (options: { name: string; dob?: string; country?: string; kind: string; json?: boolean }) => {
    const input = {
      name: options.name,
      kind: options.kind,
      ...(options.dob ? { dateOfBirth: options.dob } : {}),
      ...(options.country ? { country: options.country.toUpperCase() } : {}),
    };
    const result = (await runAdminCommand('screening-search', input)) as SearchOutput;
    print(result, Boolean(options.json), formatSearch);
    if (result.outcome === 'UNAVAILABLE' && !options.json) process.exitCode = 3;
  });
screening
  .command('status')
  .description('the list version in force and the lists it holds')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const result = await runAdminCommand('screening-status', {});
    print(result, Boolean(options.json), (r: ListStatus) =>
      r.version === null
        ? 'No list is loaded: screening answers UNAVAILABLE. Load one with `pvs screening import`.'
        : [`List version ${r.version}`, ...r.lists.map((l) => `  ${l.list.padEnd(16)} ${String(l.entries).padStart(7)} entries  ${l.format.padEnd(13)} ${l.fileName}  imported ${l.importedAt}`)].join('\n'),
    );
  });

const keys = program.command('keys').description('the key ring: SECRET_KEY seals, PREVIOUS_SECRET_KEYS still open (docs/security.md)');
keys
  .command('status')
  .description('what each key id still holds (sealed values, live token digests) and the re-seal job')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const result = await runAdminCommand('keys-status', {});
    print(result, Boolean(options.json), formatKeyStatus);
  });
keys
  .command('rotate')
  .description('sandbox: a new generated SECRET_KEY, the old one kept as a previous key; restart `pvs serve` to use it')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const { rotateSandboxKey } = await import('./cli/rotate-sandbox-key.ts');
    const result = rotateSandboxKey(await config());
    print(result, Boolean(options.json), (r: RotatedKey) =>
      [
        `SECRET_KEY is now ${r.current}; kept as previous: ${r.previous.join(', ')}`,
        r.serverRunning ? 'The running server still uses the old key: restart `pvs serve`.' : 'It is used from the next `pvs serve`.',
        'Once it has run, `pvs keys status` shows what is left under the old key (the re-seal job seals everything again).',
      ].join('\n'),
    );
  });

keys
  .command('rotate-signing')
  .description('a new ES256 key for access tokens: it signs from a minute later on every node; the key it replaces leaves the JWKS once its tokens have expired')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const result = await runAdminCommand('keys-rotate-signing', {});
    print(result, Boolean(options.json), (r: SigningRotation) =>
      [`New signing key ${r.kid}: in /.well-known/jwks.json now, signs from ${iso(r.signsFrom)}`, `${r.replaced.kid} signs until then and leaves the JWKS at ${iso(r.replaced.leavesAt)}`].join('\n'),
    );
  });

const setting = program.command('setting').description('runtime settings: changed while PVS runs, on every node at once (docs/operators.md)');
const formatSetting = (r: RuntimeSetting) =>
  `${r.name}=${r.value} (${r.source === 'RUNTIME' ? `set by ${r.changedBy} at ${r.changedAt}` : 'from the environment'}; environment: ${r.environmentValue})`;
setting
  .command('set')
  .description('set a value that wins over the environment until reset, e.g. `pvs setting set EVIDENCE_DETAIL_ENABLED false`')
  .argument('<name>', 'the setting, e.g. EVIDENCE_DETAIL_ENABLED')
  .argument('<value>', 'true or false')
  .option('--json', 'print one JSON object')
  .action(async (name: string, value: string, options: { json?: boolean }) => {
    const parsed = value === 'true' ? true : value === 'false' ? false : value;
    print(await runAdminCommand('setting-set', { name, value: parsed }), Boolean(options.json), formatSetting);
  });
setting
  .command('reset')
  .description("drop the operator's value: the environment's holds again")
  .argument('<name>', 'the setting')
  .option('--json', 'print one JSON object')
  .action(async (name: string, options: { json?: boolean }) => {
    print(await runAdminCommand('setting-reset', { name }), Boolean(options.json), formatSetting);
  });
setting
  .command('list')
  .description('every runtime setting, its value and where the value comes from')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    print(await runAdminCommand('setting-list', {}), Boolean(options.json), (r: { data: RuntimeSetting[] }) => r.data.map(formatSetting).join('\n'));
  });

const registers = program.command('registers').description('offline copies of the business registers');
registers
  .command('import-asic')
  .description("load ASIC's company dataset (tab-separated), replacing the one held (all or nothing)")
  .option('--json', 'print one JSON object')
  .argument('<file>', 'the dataset file')
  .action(async (file: string, options: { json?: boolean }) => {
    const result = await runAdminCommand('registers-import-asic', { filePath: path.resolve(file) });
    print(result, Boolean(options.json), formatAsicImport);
  });

// `replaced` counts the companies held before (the dataset this file replaces), not the ones it changed.
function formatAsicImport(r: Omit<AsicImportResult, 'importedAt'>): string {
  const imported = `Imported ${r.companies} companies from ${r.rows} rows`;
  if (r.replaced === 0) return `${imported}; no company dataset was held before`;
  return `${imported}, replacing the ${r.replaced} held before (${r.removed ? `removed ${r.removed} no longer in the file` : 'all still in the file'})`;
}

/** `pvs keys rotate-signing`'s answer: dates as the server sends them (text), or as a local run makes them. */
interface SigningRotation {
  kid: string;
  signsFrom: string | Date;
  replaced: { kid: string; leavesAt: string | Date };
}

const iso = (at: string | Date) => new Date(at).toISOString();

function formatKeyStatus(r: KeyStatus): string {
  const rows = r.keys.map((k) => `  ${k.keyId.padEnd(14)} ${k.role.padEnd(16)} ${String(k.sealed).padStart(9)} ${String(k.liveDigests).padStart(13)}${k.removable ? '   may leave PREVIOUS_SECRET_KEYS' : ''}`);
  const reseal = r.reseal ? `${r.reseal.status}${r.reseal.lastError ? ` (${r.reseal.lastError})` : ''}` : 'none (nothing to seal again)';
  return [`  ${'key id'.padEnd(14)} ${'role'.padEnd(16)} ${'sealed'.padStart(9)} ${'live digests'.padStart(13)}`, ...rows, `Re-seal job: ${reseal}`].join('\n');
}

function formatSearch(r: SearchOutput): string {
  if (r.outcome === 'UNAVAILABLE') return 'UNAVAILABLE: no list is loaded (see `pvs screening status`)';
  const head = `${r.outcome} against list version ${r.listVersion}`;
  return [
    head,
    ...r.matches.map((m) => {
      const via = m.matchedName === m.name ? '' : ` (as "${m.matchedName}")`;
      return `  ${m.score.toFixed(3)}  ${m.name}${via}  ${m.categories.join(',')}  ${m.list}:${m.entryId}  dob ${m.features.dateOfBirth}, country ${m.features.country}`;
    }),
  ].join('\n');
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const { ConfigError } = await import('./config.ts');
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`pvs: ${(error as Error).message}\n`);
  process.exit(1);
}
