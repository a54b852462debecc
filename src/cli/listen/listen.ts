// `pvs listen`: a partner developer's webhook receiver on their own machine, for a sandbox PVS (the
// counterpart of `stripe listen`; docs/webhooks.md). It is a partner client, not an admin command: it
// speaks only the partner API, with client credentials, as the partner's own code would. It binds the
// port first (nothing to undo when it is taken), then registers its destination, prints every delivery
// until SIGINT or SIGTERM, and removes the destination on the way out unless --keep.
import { loadConfig, loadDotEnv } from '../../config.ts';
import { openDestination, removeDestination } from './destination.ts';
import { resolveListenSettings, type ListenFlags } from './listen-options.ts';
import { createPartnerClient, PvsUnreachableError } from './partner-client.ts';
import { startReceiver } from './receiver.ts';

const receivePath = '/webhooks';

export async function runListen(flags: ListenFlags): Promise<void> {
  loadDotEnv();
  const settings = resolveListenSettings(flags, process.env, () => loadConfig());
  const { credentials } = settings;
  // Written straight to the descriptor (synchronous for a pipe or a terminal): a reader sees each line as it happens.
  const out = (text: string) => process.stdout.write(`${text}\n`);
  // Listening for signals from the start: a Ctrl-C while the destination is being made still removes it.
  const stop = stopSignals();

  const receiver = await startReceiver({ port: settings.port, path: receivePath, forwardTo: settings.forwardTo, json: settings.json, print: out }).catch((error: unknown) => {
    stop.dispose();
    throw error;
  });
  const client = createPartnerClient(settings);
  let partnerName: string;
  let destination: Awaited<ReturnType<typeof openDestination>>;
  try {
    partnerName = (await client.request<{ name: string }>('GET', '/v1/channel-partners/me')).name;
    destination = await openDestination(client, receiver.url);
  } catch (error) {
    await receiver.close();
    stop.dispose();
    throw error;
  }
  stop.destinationId = destination.id;
  receiver.setSecret(destination.secret);

  out(`Partner ${partnerName} (${credentials.partnerId}, credentials from ${settings.credentialsSource}) on PVS at ${settings.apiUrl} (${settings.apiSource})`);
  if (destination.reused) out(`Reusing destination ${destination.id}, already at ${receiver.url}: ${destination.reused}`);
  out(`Listening for ${partnerName}'s events at ${receiver.url} (destination ${destination.id}, all categories)`);
  if (settings.forwardTo) out(`Verified deliveries are forwarded to ${settings.forwardTo}`);
  out(`Signing secret ${destination.secret}  ${settings.keep ? 'Ctrl-C stops and keeps the destination (--keep)' : 'Ctrl-C stops and removes the destination (--keep keeps it)'}`);

  const signal = await stop.received;
  await receiver.close();
  try {
    if (settings.keep) {
      out(`Stopped (${signal}); destination ${destination.id} kept (--keep): PVS still sends to ${receiver.url}, and the next pvs listen on port ${settings.port} reuses it`);
    } else {
      const removed = await removeDestination(client, destination.id);
      out(`Stopped (${signal}); destination ${destination.id} ${removed === 'removed' ? 'removed' : 'was already removed'}`);
    }
  } catch (error) {
    const why = error instanceof PvsUnreachableError ? `PVS at ${error.apiUrl} cannot be reached (${error.reason})` : (error as Error).message.replace(/\.$/, '');
    process.stderr.write(
      `Stopped (${signal}), but destination ${destination.id} was not removed: ${why}.\n` +
        `PVS keeps sending to ${receiver.url}. Remove it in the portal or with DELETE /v1/webhook-destinations/${destination.id}; the next pvs listen on port ${settings.port} reuses it.\n`,
    );
    process.exitCode = 1;
  } finally {
    stop.dispose();
  }
  // fetch keeps its connection to PVS open for a few seconds more, which would hold the process: exit
  // once what was written has left.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
  process.exit();
}

/** SIGINT and SIGTERM stop the listener once; a second one exits at once, saying what it leaves behind. */
function stopSignals(): { received: Promise<NodeJS.Signals>; destinationId?: string; dispose(): void } {
  let resolve: (signal: NodeJS.Signals) => void = () => {};
  const state = {
    received: new Promise<NodeJS.Signals>((r) => (resolve = r)),
    destinationId: undefined as string | undefined,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
  let count = 0;
  function onSignal(signal: NodeJS.Signals): void {
    if (++count === 1) return resolve(signal);
    const left = state.destinationId ? `; destination ${state.destinationId} may be left behind (the next pvs listen on the same port reuses it)` : '';
    process.stderr.write(`Second ${signal}: exiting at once${left}\n`);
    process.exit(1);
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return state;
}
