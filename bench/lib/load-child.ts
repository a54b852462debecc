// The load generator's process: receives LoadOptions, runs warm-up and measurement, answers Figures.
import { measureHere, type LoadOptions } from './load.ts';

process.once('message', (options: LoadOptions) => {
  measureHere(options)
    .then((figures) => process.send!({ ok: true, figures }))
    .catch((error: unknown) => process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
    .finally(() => process.disconnect());
});
