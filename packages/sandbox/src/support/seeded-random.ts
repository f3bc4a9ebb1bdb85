// A small deterministic PRNG shared by the seed data and the analytics simulation, and draws from
// it seeded by a text (the attributes the sandbox draws per store, product or variant).

/** Mulberry32: a small, fast, deterministic PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number for a text, the seed of its draws (FNV-1a). */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Deterministic draws seeded by `seed`: an item, a few distinct items, a chance, an integer below a limit. */
export function drawsFor(seed: string) {
  const random = seededRandom(hashOf(seed));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return {
    pick,
    some: <T>(items: readonly T[], most: number): T[] => {
      const count = 1 + Math.floor(random() * Math.min(most, items.length));
      return [...new Set(Array.from({ length: count }, () => pick(items)))];
    },
    chance: (probability: number) => random() < probability,
    below: (limit: number) => Math.floor(random() * limit),
  };
}
