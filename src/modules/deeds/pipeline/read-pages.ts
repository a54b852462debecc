// A deed's pages, read in a child process with a deadline (CONTRACT §7): text layer, OCR where there is
// none, the TFN scan over all of it (page-reader.ts does the work in the child: read-pages.child.ts, started
// by read-pages.child.mjs from source or read-pages.child-entry.js compiled). This process loads none of
// pdfjs, canvas, sharp or tesseract.js for it: they are the child's.
//
// A child process, not a worker thread, because:
//   - the deadline must end everything: SIGKILL stops a process wherever it is, in pdfjs's parser, in a
//     native canvas draw or in tesseract's WASM, and takes tesseract's threads with it; a worker thread's
//     terminate() waits for a native call to return;
//   - a hostile PDF that exhausts memory (a page of 10^9 pixels, a decompression bomb) kills the child,
//     not the job worker that runs every other job; canvas, sharp and WASM memory is outside V8's heap,
//     where a worker's resourceLimits cannot bound it;
//   - the deed's text lives in a process that exits when the document is done, and the child's stdout and
//     stderr go nowhere, so nothing pdfjs or tesseract prints about a deed reaches a log.
// The price is ~0.5 s to start Node, tsx and pdfjs per document (bench/tools/deed-pipeline-measure.ts), against seconds of
// OCR per scanned page. One child per document, not a pool: no deed's text is ever in a process that
// handles another's, and a killed child needs no repair.
//
// The promise settles only once the child has exited: when it does, nothing of the call is left running.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PageReading, PageReadingFailure, PageReadingStage } from './page-reader.ts';

export type DeedPagesFailure = PageReadingFailure | 'TIMED_OUT';
export type DeedPagesResult = Exclude<PageReading, { ok: false }> | { ok: false; reason: DeedPagesFailure };

export interface ReadDeedPagesOptions {
  /** Everything, from starting the child to its answer, within this many ms; then the child is killed. */
  deadlineMs: number;
  /** OCR workers at most (one thread, and so about one core, each). */
  concurrency: number;
}

/** What the parent sends the child, once it is ready. */
export interface ChildJob {
  bytes: Uint8Array;
  concurrency: number;
}

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'stage'; stage: PageReadingStage }
  | { type: 'result'; result: PageReading }
  | { type: 'crashed'; errorName: string };

/**
 * The child's entry. From source (this module is `.ts`, run by tsx: the tests) the .mjs wrapper, which
 * loads pdfjs natively and then registers tsx for the child's TypeScript; compiled (dist/, where tsx is
 * not installed) the compiled entry, which loads pdfjs the same way and imports the compiled child.
 */
const childEntry = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './read-pages.child.mjs' : './read-pages.child-entry.js', import.meta.url));
/** After its answer the child exits by itself; if it has not within this, it is killed. */
const exitGraceMs = 5_000;

export function readDeedPages(bytes: Buffer, options: ReadDeedPagesOptions): Promise<DeedPagesResult> {
  if (!(options.deadlineMs > 0) || !Number.isInteger(options.concurrency) || options.concurrency < 1) {
    return Promise.reject(new RangeError('readDeedPages: deadlineMs must be positive and concurrency a whole number of at least 1'));
  }
  return new Promise((resolve, reject) => {
    // No execArgv: none of the parent's flags (--import tsx, --inspect, --cpu-prof); from source the entry
    // registers tsx itself, after loading pdfjs without it (read-pages.child.mjs).
    const child = fork(childEntry, [], { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
    let stage: PageReadingStage | 'STARTING' = 'STARTING';
    let outcome: { result: DeedPagesResult } | { error: Error } | null = null;
    let graceTimer: NodeJS.Timeout | undefined;

    const settle = (value: { result: DeedPagesResult } | { error: Error }, kill: boolean) => {
      outcome ??= value;
      if (kill) child.kill('SIGKILL');
      else graceTimer ??= setTimeout(() => child.kill('SIGKILL'), exitGraceMs);
    };

    const deadline = setTimeout(() => settle({ result: { ok: false, reason: 'TIMED_OUT' } }, true), options.deadlineMs);

    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        const job: ChildJob = { bytes, concurrency: options.concurrency };
        // From here a death without an answer is the document's doing (the child parses it at once).
        stage = 'TEXT_LAYER';
        child.send(job, (error) => {
          if (error) settle({ error: new Error('deed page reader did not take the document') }, true);
        });
      } else if (message.type === 'stage') {
        stage = message.stage;
      } else if (message.type === 'result') {
        settle({ result: message.result }, false);
      } else {
        settle({ error: new Error(`deed page reader crashed (${message.errorName}) in stage ${stage}`) }, true);
      }
    });
    // Failing to start (no such file, no tsx): a deployment bug, not the document's fault.
    child.on('error', (error) => settle({ error: new Error(`deed page reader could not run: ${error.name}`) }, true));

    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      if (!outcome) {
        // Gone without an answer: out of memory or killed by the system. Blamed on the document, by stage.
        if (stage === 'OCR') outcome = { result: { ok: false, reason: 'OCR_FAILED' } };
        else if (stage === 'TEXT_LAYER') outcome = { result: { ok: false, reason: 'NOT_A_PDF' } };
        else outcome = { error: new Error(`deed page reader exited before it started (code ${code}, signal ${signal})`) };
      }
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.result);
    });
  });
}
