/**
 * Small seeded PRNG (mulberry32) for deterministic demo data. No dependencies.
 */

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(arr: readonly T[]): T;
  /** true with probability p (0..1). */
  chance(p: number): boolean;
  /** One element, chosen with the given non-negative weights. */
  weighted<T>(arr: readonly T[], weight: (item: T) => number): T;
}

/** mulberry32: 32-bit state, period 2^32, good enough for demo data. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;

  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const int = (min: number, max: number): number => {
    const lo = Math.ceil(Math.min(min, max));
    const hi = Math.floor(Math.max(min, max));
    return lo + Math.floor(next() * (hi - lo + 1));
  };

  const pick = <T>(arr: readonly T[]): T => {
    if (arr.length === 0) throw new RangeError('pick() from an empty array');
    return arr[Math.floor(next() * arr.length)];
  };

  const chance = (p: number): boolean => next() < p;

  const weighted = <T>(arr: readonly T[], weight: (item: T) => number): T => {
    if (arr.length === 0) throw new RangeError('weighted() from an empty array');
    let total = 0;
    for (const item of arr) total += Math.max(0, weight(item));
    if (total <= 0) return pick(arr);
    let r = next() * total;
    for (const item of arr) {
      r -= Math.max(0, weight(item));
      if (r < 0) return item;
    }
    return arr[arr.length - 1];
  };

  return { next, int, pick, chance, weighted };
}

/** FNV-1a 32-bit hash of a string: stable per-value "randomness" (e.g. one postcode per town). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
