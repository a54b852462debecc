// Heavy packages (PDF, OCR, canvas, images, cloud and payment SDKs) are loaded where they are first used,
// behind the provider that needs them, so a process that never uses one never pays for it: `pvs --help`
// or a CLI search loads no pdfjs (docs/architecture.md, "What a process loads"). A provider keeps `import type` from
// its heavy package at the top (it vanishes when compiled) and wraps the real `import()` in `lazy`.
//
// Invariants of a loader made by `lazy`:
// - `load` runs at the first call, not before; its promise is shared by every caller until it settles,
//   so the concurrent first requests of a busy server wait for one load, never start one each.
// - A load that succeeded is kept for the life of the process.
// - A load that failed is forgotten once its callers have its error: the next call tries again (a
//   package restored, a file descriptor free again). Each provider answers a failed load the way it
//   answers its own outage, so callers need no new case.
//
// Node keeps a module whose import failed as failed, for the life of the process: were a provider's own
// module (which imports its package statically) imported while the package is missing, every later
// import of that module would fail the same way, package or not. So a provider's loader imports its
// packages by name first, and its own module only once they have loaded: a package that could not be
// found is looked for again at the next call. (A package whose own code threw while loading, such as a
// native binding that does not match the platform, stays failed until the process restarts.)

export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= (async () => load())().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/** A failed load in a few words for a log line or an outage's message (a name and message, no stack). */
export function describeLoadError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`.slice(0, 300);
}
