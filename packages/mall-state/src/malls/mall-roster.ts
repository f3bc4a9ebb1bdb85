// Which malls are in use, most recently used last, so the mocks stay bounded on a shared sandbox:
// past the cap the least recently used mall is dropped, and a mall idle longer than the idle
// limit is dropped the next time the roster is touched or listed. Only a request that passed the
// credentials check, or a control call that changed a mall, touches one: a refused request
// creates no mall. Dropping is the caller's (`onDrop`): data, journal, faults, buckets and clock.
// This module is the interface and the roster of one process; the roster replicas share (a sorted
// set of last uses in Redis) is redis/redis-mall-roster.ts.

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
  touch(mallId: string): Promise<void>;
  /** The malls in use (idle ones dropped first), in id order. */
  mallIds(): Promise<string[]>;
}

/** What drops a mall's state (called once per dropped mall). */
export type DropMall = (mallId: string) => void | Promise<void>;

/** The limits with their defaults applied, after checking them. */
export function checkedMallLimits(limits: MallLimits): Required<MallLimits> {
  const maxMalls = limits.maxMalls ?? defaultMallLimits.maxMalls;
  const idleMs = limits.idleMs ?? defaultMallLimits.idleMs;
  if (!(Number.isInteger(maxMalls) && maxMalls >= 1))
    throw new RangeError('maxMalls must be a positive integer');
  if (!(Number.isFinite(idleMs) && idleMs >= 0)) throw new RangeError('idleMs must be a non-negative number');
  return { maxMalls, idleMs };
}

/** Creates a roster; `now` is real time (not a mall's clock, which tests move). */
export function createMallRoster(
  onDrop: DropMall,
  limits: MallLimits = {},
  now: () => number = Date.now,
): MallRoster {
  const { maxMalls, idleMs } = checkedMallLimits(limits);
  // A Map iterates in insertion order: deleting and setting again moves a mall to the end.
  const lastUse = new Map<string, number>();
  const drop = async (mallId: string) => {
    lastUse.delete(mallId);
    await onDrop(mallId);
  };
  const dropIdle = async () => {
    if (idleMs === 0) return;
    const before = now() - idleMs;
    const idle: string[] = [];
    for (const [mallId, used] of lastUse) {
      if (used > before) break;
      idle.push(mallId);
    }
    for (const mallId of idle) await drop(mallId);
  };
  return {
    async touch(mallId) {
      lastUse.delete(mallId);
      lastUse.set(mallId, now());
      await dropIdle();
      while (lastUse.size > maxMalls) {
        const [oldest] = lastUse.keys();
        if (oldest === undefined) break;
        await drop(oldest);
      }
    },
    async mallIds() {
      await dropIdle();
      return [...lastUse.keys()].sort();
    },
  };
}
