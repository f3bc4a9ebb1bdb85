// The time at each mall: real time plus an offset a test can move forward (or set), so tokens,
// codes, rate-limit buckets and analytics days of one mall move without waiting and without
// touching any other mall. Offsets live in an offset store: this process's memory, or Redis shared
// by replicas (redis/redis-clock-offsets.ts, whose real time is Redis's clock). Reading the time
// stays synchronous (`now`, read many times a request) from the offset this process last saw;
// `refresh` loads it once per request where the mall is known, and every change made here updates
// it, so a clock moved on one replica is what the next request on any other sees.

/** Where the offsets of the malls' clocks live. */
export interface ClockOffsetStore {
  /** The offset of a mall's clock (0 when never moved). */
  get(mallId: string): Promise<number>;
  /** Adds `ms` to a mall's offset atomically; returns the new offset. */
  add(mallId: string, ms: number): Promise<number>;
  put(mallId: string, offsetMs: number): Promise<void>;
  delete(mallId: string): Promise<void>;
  /**
   * Deletes an offset this process keeps, at once (a store in this process's memory); absent
   * where the offset is shared (Redis: a dropped mall's goes with its keys).
   */
  readonly forget?: (mallId: string) => void;
  /**
   * How far the store's shared clock runs ahead of this process's, as last measured (Redis's
   * TIME, read with each offset); absent: this process's clock is the one clock.
   */
  readonly skewMs?: () => number;
}

/** Per-mall clocks. */
export interface MallClocks {
  /** The time at a mall, in epoch milliseconds (the offset this process last saw). */
  now(mallId: string): number;
  /** How far a mall's clock runs ahead of real time (as this process last saw it). */
  offset(mallId: string): number;
  /** Loads a mall's offset from the store (nothing to do in memory). */
  refresh(mallId: string): Promise<void>;
  /** Moves a mall's clock forward by `ms` (never backward); gives its new time. */
  advance(mallId: string, ms: number): Promise<number>;
  /** Sets a mall's clock to `epochMs` (a test may go back, for instance to replay a day). */
  set(mallId: string, epochMs: number): Promise<number>;
  /** Puts a mall's clock back on real time. */
  reset(mallId: string): Promise<void>;
  /**
   * Forgets a dropped mall's clock in this process, at once: the offset it last saw, and the
   * offset itself when this process keeps it (a shared one went with the mall's keys).
   */
  forget(mallId: string): void;
}

/** The offsets in this process's memory. */
export function memoryClockOffsets(): ClockOffsetStore {
  const offsets = new Map<string, number>();
  return {
    get: async (mallId) => offsets.get(mallId) ?? 0,
    async add(mallId, ms) {
      const offset = (offsets.get(mallId) ?? 0) + ms;
      offsets.set(mallId, offset);
      return offset;
    },
    put: async (mallId, offsetMs) => void offsets.set(mallId, offsetMs),
    delete: async (mallId) => void offsets.delete(mallId),
    forget: (mallId) => void offsets.delete(mallId),
  };
}

/**
 * Creates the clocks over a base time source and an offset store (this process's memory by
 * default). The default base is real time: the store's shared clock when it has one (Redis's),
 * else this process's.
 */
export function createMallClocks(
  given?: () => number,
  store: ClockOffsetStore = memoryClockOffsets(),
): MallClocks {
  const { skewMs } = store;
  const base = given ?? (skewMs ? () => Date.now() + skewMs() : Date.now);
  // What this process last saw of each mall's offset; the store is the truth.
  const seen = new Map<string, number>();
  const note = (mallId: string, offset: number) => {
    if (offset === 0) seen.delete(mallId);
    else seen.set(mallId, offset);
  };
  const offset = (mallId: string) => seen.get(mallId) ?? 0;
  const now = (mallId: string) => base() + offset(mallId);
  return {
    now,
    offset,
    refresh: (mallId) => store.get(mallId).then((stored) => note(mallId, stored)),
    async advance(mallId, ms) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new RangeError('a clock only moves forward by a finite amount');
      note(mallId, await store.add(mallId, ms));
      return now(mallId);
    },
    async set(mallId, epochMs) {
      const moved = epochMs - base();
      await store.put(mallId, moved);
      note(mallId, moved);
      return now(mallId);
    },
    async reset(mallId) {
      await store.delete(mallId);
      seen.delete(mallId);
    },
    forget(mallId) {
      seen.delete(mallId);
      store.forget?.(mallId);
    },
  };
}
