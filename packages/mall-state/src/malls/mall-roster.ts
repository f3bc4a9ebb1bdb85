// Which malls are in use, most recently used last, so the mocks stay bounded on a shared sandbox:
// past the cap the least recently used mall is dropped, and a mall idle past the idle limit when
// the roster is touched or listed, or when `expire` runs (on a timer: `expireEvery`). No drop loses
// a use: a request marks its mall (`renew` as soon as its mall is known, `touch` to add it once it
// passed every check, so a refused request creates no mall; a write before its work starts), the
// drop asks `stillUnused` just before the data goes (under the mall's lock where it is shared), and
// a mall stays on the roster until its drop has finished, so a failed drop is tried again. This
// module is the interface and the roster of one process; replicas share redis/redis-mall-roster.ts.

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
  /**
   * Marks a mall used now if it is on the roster, then drops idle malls as `touch` does; false
   * (nothing changed) when it is not on the roster. For a `read` (which loses nothing to a drop) a
   * roster whose marks cost a round trip may answer true at once when it marked the mall moments
   * ago, and mark the use a little later instead (redis/redis-mall-roster.ts).
   */
  renew(mallId: string, use?: 'read' | 'write'): Promise<boolean>;
  /**
   * Puts malls found at start (a data directory's, a database's) on the roster as used now,
   * leaving the last use of any it has already (a shared roster another replica keeps).
   */
  adopt(mallIds: readonly string[]): Promise<void>;
  /** Drops the malls idle past the idle limit now. */
  expire(): Promise<void>;
  /** The malls in use (idle ones dropped first), in id order. */
  mallIds(): Promise<string[]>;
}

/**
 * Whether the mall a drop was decided for is still unused since that decision — and when it is,
 * the stores have cleared the mall's journal, faults and buckets (on Redis, every key of the
 * mall) in the same step. Where the roster is this process's the answer is decided when it is
 * called (the promise is settled already), so a drop in memory that follows it at once, before any
 * request's later step, cannot miss a use.
 */
export type StillUnused = () => Promise<boolean>;

/**
 * What drops a mall's state: it calls `stillUnused` once, just before dropping (under the mall's
 * lock where there is one), and drops nothing when it answers false. Rejects when the drop could
 * not be made (the mall stays on the roster).
 */
export type DropMall = (mallId: string, stillUnused: StillUnused) => Promise<void>;

/** The limits with their defaults applied, after checking them. */
export function checkedMallLimits(limits: MallLimits): Required<MallLimits> {
  const maxMalls = limits.maxMalls ?? defaultMallLimits.maxMalls;
  const idleMs = limits.idleMs ?? defaultMallLimits.idleMs;
  if (!(Number.isInteger(maxMalls) && maxMalls >= 1))
    throw new RangeError('maxMalls must be a positive integer');
  if (!(Number.isFinite(idleMs) && idleMs >= 0)) throw new RangeError('idleMs must be a non-negative number');
  return { maxMalls, idleMs };
}

/**
 * Runs `roster.expire` every `everyMs` (an unref'd timer: it never keeps the process alive); a
 * failed run leaves its malls on the roster for the next (an outage is logged by its store's
 * connection). Gives the function that stops it.
 */
export function expireEvery(roster: MallRoster, everyMs: number): () => void {
  const timer = setInterval(() => void roster.expire().catch(() => {}), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** One use of a mall: a new object per touch, so a drop can tell whether the mall was used since. */
interface Use {
  readonly at: number;
}

/**
 * Creates a roster; `now` is real time (not a mall's clock, which tests move); `clearMall` clears
 * a mall's state synchronously when `stillUnused` finds it unused (the stores' journal, faults
 * and buckets).
 */
export function createMallRoster(
  onDrop: DropMall,
  limits: MallLimits = {},
  now: () => number = Date.now,
  clearMall: (mallId: string) => void = () => {},
): MallRoster {
  const { maxMalls, idleMs } = checkedMallLimits(limits);
  // A Map iterates in insertion order: deleting and setting again moves a mall to the end.
  const lastUse = new Map<string, Use>();
  // Malls whose drop is under way (another touch does not start a second one).
  const dropping = new Set<string>();
  /** Drops a mall unless it is used meanwhile; it leaves the roster once its drop has finished. */
  const drop = async (mallId: string, use: Use) => {
    if (dropping.has(mallId)) return;
    dropping.add(mallId);
    try {
      await onDrop(mallId, async () => {
        const unused = lastUse.get(mallId) === use;
        if (unused) clearMall(mallId);
        return unused;
      });
      if (lastUse.get(mallId) === use) lastUse.delete(mallId);
    } finally {
      dropping.delete(mallId);
    }
  };
  /** The malls idle for `idleMs` or longer, least recently used first (none when idle malls stay). */
  const idleMalls = (): [string, Use][] => {
    const idle: [string, Use][] = [];
    if (idleMs === 0) return idle;
    const before = now() - idleMs;
    for (const entry of lastUse) {
      if (entry[1].at > before) break;
      idle.push(entry);
    }
    return idle;
  };
  const expire = async () => {
    for (const [mallId, use] of idleMalls()) await drop(mallId, use);
  };
  const touch = async (mallId: string) => {
    lastUse.delete(mallId);
    lastUse.set(mallId, { at: now() });
    await expire();
    // Within the cap (the common case) there is no surplus to list.
    if (lastUse.size <= maxMalls) return;
    // The surplus, least recently used first, apart from malls whose drop is under way.
    const surplus = [...lastUse].filter(([id]) => !dropping.has(id));
    for (const [mallId, use] of surplus.slice(0, Math.max(0, surplus.length - maxMalls)))
      await drop(mallId, use);
  };
  return {
    touch,
    async renew(mallId) {
      if (!lastUse.has(mallId)) return false;
      await touch(mallId);
      return true;
    },
    async adopt(mallIds) {
      for (const mallId of mallIds) if (!lastUse.has(mallId)) lastUse.set(mallId, { at: now() });
    },
    expire,
    async mallIds() {
      await expire();
      return [...lastUse.keys()].sort();
    },
  };
}
