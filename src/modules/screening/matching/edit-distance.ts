// Optimal string alignment distance (Levenshtein plus adjacent transpositions): how many typing
// mistakes turn one token into the other. Jaro-Winkler rewards a shared start; this counts the rest.

const previous2: number[] = [];
const previous: number[] = [];
const current: number[] = [];

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        best = Math.min(best, previous2[j - 2]! + 1);
      }
      current[j] = best;
    }
    for (let j = 0; j <= b.length; j++) {
      previous2[j] = previous[j]!;
      previous[j] = current[j]!;
    }
  }
  return previous[b.length]!;
}
