// What a storage key may be, for every back-end: a folder and a name (`deeds/dda_01J….pdf`), letters,
// digits, `_` and `-` (and `.` in the name), each beginning with a letter or digit. So a key can never
// be `..`, absolute, empty between slashes or hidden, and a local file name built from it stays inside
// the storage directory; S3 gets the same keys so the two back-ends hold the same objects. The name
// stays within the router's 100-character limit on a path parameter (PUT /storage/:folder/:name).

const keyShape = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function isStorageKey(key: unknown): key is string {
  return typeof key === 'string' && keyShape.test(key);
}

/** A key that breaks the rules is a bug in the caller, never a partner's input: thrown, not returned. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(String(key).slice(0, 300))}`);
}

const analysisIdShape = /^[A-Za-z0-9_-]{1,64}$/;

/** The analysis id goes into a signed header as is, so it must be plain header text. */
export function assertAnalysisId(id: string): void {
  if (!analysisIdShape.test(id)) throw new Error(`Not an analysis id: ${JSON.stringify(id.slice(0, 100))}`);
}

/** Unix seconds of `expiresAt` (whole seconds: the URL carries seconds), refusing a window already over. */
export function uploadWindowEnd(expiresAt: Date, now: Date): number {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) throw new Error('An upload window must end in the future');
  return expires;
}
