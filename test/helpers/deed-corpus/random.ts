// The deed corpus draws from the benchmarks' seeded generator: the same seed draws the same deed on every machine.
export { createRandom, type Random } from '../../../bench/lib/random.ts';
