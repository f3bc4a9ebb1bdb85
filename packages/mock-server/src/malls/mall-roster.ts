// Which malls are in use, most recently used last, so the mocks stay bounded on a shared sandbox:
// past the cap the least recently used mall is dropped, and a mall idle longer than the idle
// limit is dropped the next time the roster is touched or listed. Only a request that passed the
// credentials check, or a control call that changed a mall, touches one: a refused request
// creates no mall. Dropping is the caller's (`onDrop`): data, journal, faults, buckets and clock.

/** Limits on the malls of one process. */
export interface MallLimits {
  /** At most this many malls; using one more drops the least recently used (default 200). */
  readonly maxMalls?: number;
  /** A mall not used for this long is dropped (default one hour; 0 never). */
  readonly idleMs?: number;
}

/** The defaults of {@link MallLimits}. */
export const defaultMallLimits = { maxMalls: 200, idleMs: 60 * 60 * 1000 } as const;

/** The malls in use, least recently used first. */
export interface MallRoster {
  /** Marks a mall used now (adding it), then drops idle malls and any past the cap. */
  touch(mallId: string): void;
  /** The malls in use (idle ones dropped first), in id order. */
  mallIds(): string[];
}

/** Creates a roster; `now` is real time (not a mall's clock, which tests move). */
export function createMallRoster(
  onDrop: (mallId: string) => void,
  limits: MallLimits = {},
  now: () => number = Date.now,
): MallRoster {
  const maxMalls = limits.maxMalls ?? defaultMallLimits.maxMalls;
  const idleMs = limits.idleMs ?? defaultMallLimits.idleMs;
  if (!(Number.isInteger(maxMalls) && maxMalls >= 1))
    throw new RangeError('maxMalls must be a positive integer');
  if (!(Number.isFinite(idleMs) && idleMs >= 0)) throw new RangeError('idleMs must be a non-negative number');
  // A Map iterates in insertion order: deleting and setting again moves a mall to the end.
  const lastUse = new Map<string, number>();
  const drop = (mallId: string) => {
    lastUse.delete(mallId);
    onDrop(mallId);
  };
  const dropIdle = () => {
    if (idleMs === 0) return;
    const before = now() - idleMs;
    for (const [mallId, used] of lastUse) {
      if (used > before) break;
      drop(mallId);
    }
  };
  return {
    touch(mallId) {
      lastUse.delete(mallId);
      lastUse.set(mallId, now());
      dropIdle();
      for (const [oldest] of lastUse) {
        if (lastUse.size <= maxMalls) break;
        drop(oldest);
      }
    },
    mallIds() {
      dropIdle();
      return [...lastUse.keys()].sort();
    },
  };
}
