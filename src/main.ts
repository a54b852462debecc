// The `pvs` command.
import { Command, Option } from 'commander';
import { runAdminCommand } from './cli/admin-client.ts';
import { runServe, type Role } from './cli/serve.ts';
import { ConfigError, loadConfig, loadDotEnv, type Config } from './config.ts';

function config(): Config {
  loadDotEnv();
  return loadConfig();
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
    await runServe(config(), options.role);
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .option('--json', 'print one JSON object')
  .action(async (options: { json?: boolean }) => {
    const result = (await runAdminCommand(config(), 'migrate', {})) as { applied: string[] };
    print(result, Boolean(options.json), (r: { applied: string[] }) => (r.applied.length ? `Applied ${r.applied.join(', ')}` : 'Nothing to apply: the database is up to date'));
  });

const partner = program.command('partner').description('channel partners');
partner
  .command('create')
  .description('create a channel partner with one API client')
  .requiredOption('--name <name>', 'display name')
  .option('--monitoring', 'eligible for monitoring events')
  .option('--json', 'print one JSON object')
  .action(async (options: { name: string; monitoring?: boolean; json?: boolean }) => {
    const result = await runAdminCommand(config(), 'partner-create', { name: options.name, monitoring: Boolean(options.monitoring) });
    print(result, Boolean(options.json), (r: { partnerId: string; clientId: string; clientSecret: string }) =>
      [`partnerId     ${r.partnerId}`, `clientId      ${r.clientId}`, `clientSecret  ${r.clientSecret}   (shown once)`].join('\n'),
    );
  });

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
    const result = await runAdminCommand(config(), 'destination-create', { partnerId: options.partner, url: options.url, ...(categories ? { categories } : {}) });
    print(result, Boolean(options.json), (r: { id: string; secret: string; categories: string[] }) =>
      [`id          ${r.id}`, `secret      ${r.secret}   (shown once)`, `categories  ${r.categories.join(', ')}`].join('\n'),
    );
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`pvs: ${(error as Error).message}\n`);
  process.exit(1);
}
