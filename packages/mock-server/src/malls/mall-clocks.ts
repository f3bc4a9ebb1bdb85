// The time at each mall: real time plus an offset a test can move forward (or set), so access
// tokens, refresh tokens, OAuth codes, rate-limit buckets and analytics days of one mall move
// without waiting and without touching any other mall's time.

/** Per-mall clocks. */
export interface MallClocks {
  /** The time at a mall, in epoch milliseconds. */
  now(mallId: string): number;
  /** How far a mall's clock runs ahead of real time. */
  offset(mallId: string): number;
  /** Moves a mall's clock forward by `ms` (never backward). */
  advance(mallId: string, ms: number): number;
  /** Sets a mall's clock to `epochMs` (a test may go back, for instance to replay a day). */
  set(mallId: string, epochMs: number): number;
  /** Puts a mall's clock back on real time. */
  reset(mallId: string): void;
}

/** Creates the clocks over a base time source (real time by default). */
export function createMallClocks(base: () => number = Date.now): MallClocks {
  const offsets = new Map<string, number>();
  const offset = (mallId: string) => offsets.get(mallId) ?? 0;
  const now = (mallId: string) => base() + offset(mallId);
  return {
    now,
    offset,
    advance(mallId, ms) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new RangeError('a clock only moves forward by a finite amount');
      offsets.set(mallId, offset(mallId) + ms);
      return now(mallId);
    },
    set(mallId, epochMs) {
      offsets.set(mallId, epochMs - base());
      return now(mallId);
    },
    reset: (mallId) => void offsets.delete(mallId),
  };
}
