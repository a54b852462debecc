// A seeded pseudo-random generator for benchmark and test data (the deed corpus draws from it too): the same seed gives the same list and the same
// queries on every machine and every run, so two runs measure the same work. Not for anything secret.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  int(n: number): number;
  /** A whole number in [min, max]. */
  between(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `n` distinct items, in a random order. */
  sample<T>(items: readonly T[], n: number): T[];
  /** An independent generator derived from this one's seed and a label (a stream per purpose). */
  fork(label: string): Random;
}

/** FNV-1a over the label: a stream's seed. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Mulberry32: 32 bits of state, fast, and good enough to draw names from pools. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (n) => Math.floor(next() * n),
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    sample: (items, n) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, n);
    },
    fork: (label) => createRandom(hash32(label, seed)),
  };
  return random;
}

/**
 * Draws from a list ordered from most to least common with Zipf weights (rank r weighs 1/r^s), so that
 * a few names are very common, as on real lists (Mohammed, Kim, Nguyen, Wang), and most are rare.
 */
export function zipf<T>(items: readonly T[], exponent = 1): (random: Random) => T {
  const cumulative = new Float64Array(items.length);
  let total = 0;
  items.forEach((_, i) => {
    total += 1 / (i + 1) ** exponent;
    cumulative[i] = total;
  });
  return (random) => {
    const target = random.next() * total;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

/** Draws a key by explicit weights (`{ a: 3, b: 1 }` gives a three times in four). */
export function weighted<K extends string>(weights: Readonly<Record<K, number>>): (random: Random) => K {
  const keys = Object.keys(weights) as K[];
  const pickFrom = keys.map((k) => weights[k]);
  const total = pickFrom.reduce((a, b) => a + b, 0);
  return (random) => {
    let target = random.next() * total;
    for (let i = 0; i < keys.length; i++) {
      target -= pickFrom[i]!;
      if (target < 0) return keys[i]!;
    }
    return keys[keys.length - 1]!;
  };
}
