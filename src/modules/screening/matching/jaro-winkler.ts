// Jaro-Winkler similarity of two tokens, written here rather than taken from a package because it is the
// innermost loop of every screening: it allocates nothing but two small flag arrays per call.

const flagsA = new Uint8Array(64);
const flagsB = new Uint8Array(64);

/** Jaro similarity in [0, 1]. Tokens longer than 64 characters are compared on their first 64. */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const la = Math.min(a.length, 64);
  const lb = Math.min(b.length, 64);
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  flagsA.fill(0, 0, la);
  flagsB.fill(0, 0, lb);

  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    const ch = a.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (flagsB[j] || b.charCodeAt(j) !== ch) continue;
      flagsA[i] = 1;
      flagsB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;

  let halfTranspositions = 0;
  for (let i = 0, j = 0; i < la; i++) {
    if (!flagsA[i]) continue;
    while (!flagsB[j]) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) halfTranspositions++;
    j++;
  }
  const m = matches;
  return (m / la + m / lb + (m - halfTranspositions / 2) / m) / 3;
}

/** Jaro-Winkler: Jaro, raised for a common prefix of up to four characters (scale 0.1, as Winkler). */
export function jaroWinkler(a: string, b: string): number {
  const score = jaro(a, b);
  if (score < 0.7) return score;
  let prefix = 0;
  const limit = Math.min(4, a.length, b.length);
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return score + prefix * 0.1 * (1 - score);
}
