// The child process read-pages.ts starts for one document: it says it is ready, takes the PDF, reads its
// pages (page-reader.ts), sends the answer and exits. Its stdout and stderr go nowhere (read-pages.ts):
// nothing it could print about a deed may reach a log. It exits when its parent goes, and is killed with
// SIGKILL when the deadline passes, so nothing it started (pdfjs, tesseract's threads) outlives it.
import type { ChildMessage, ChildJob } from './read-pages.ts';
import { readPagesInProcess } from './page-reader.ts';

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

// The parent gone (crashed, killed): no one wants the answer.
process.on('disconnect', () => process.exit(0));

// A bug of ours (pdfjs's and tesseract's failures are caught where they happen): its name only, never its
// message, which could quote the deed.
const crash = (error: unknown) => {
  const name = error instanceof Error ? error.constructor.name : typeof error;
  void send({ type: 'crashed', errorName: name }).finally(() => process.exit(70));
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

process.once('message', (job: ChildJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  void readPagesInProcess(bytes, { concurrency: job.concurrency, onStage: (stage) => void send({ type: 'stage', stage }) })
    .then((result) => send({ type: 'result', result }))
    .then(() => process.exit(0), crash);
});

void send({ type: 'ready' });
