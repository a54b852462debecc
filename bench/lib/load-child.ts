// The load generator's process: runs autocannon for each request from the parent and answers the raw
// run. When the parent goes away (end of run, Ctrl-C, crash) it stops at once, mid-run or not.
import { runHere, type LoadOptions } from './load.ts';

process.on('disconnect', () => process.exit(0));

process.on('message', (message: { id: number; options: LoadOptions }) => {
  const answer = (value: object) => {
    if (process.connected) process.send!({ id: message.id, ...value });
  };
  runHere(message.options)
    .then((run) => answer({ ok: true, run }))
    .catch((error: unknown) => answer({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
});
