// A seeded generator for the deed corpus: the same seed draws the same deed on every machine.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  int(n: number): number;
  /** A whole number in [min, max]. */
  between(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `n` distinct items, in a random order. */
  sample<T>(items: readonly T[], n: number): T[];
  /** A stream of its own, derived from this one's seed and a label. */
  fork(label: string): Random;
}

function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Mulberry32. Not for anything secret. */
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
