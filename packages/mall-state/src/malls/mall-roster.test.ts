// The mall roster at the function: the least recently used mall goes first past the cap, an idle
// mall goes on the next touch or listing or on a timer, a touch makes a mall the most recent, a
// renew marks only a mall on the roster, a mall used after it was found idle or chosen by the cap
// is kept, a mall whose drop failed stays
// until a later run drops it, and its limits are checked; on Redis, idle expiry follows Redis's
// clock, not the clock of the replica that looks, and a read of a mall the replica marked moments
// ago sends no mark then but marks the mall once that moment has passed (a read no later than the
// last use leaves it as it is).
import { describe, expect, it, vi } from 'vitest';
import { redisMallRoster } from '../redis/redis-mall-roster.js';
import { useTestRedis } from '../testing/shared-redis.js';
import {
  createMallRoster,
  type DropMall,
  expireEvery,
  type MallLimits,
  type MallRoster,
} from './mall-roster.js';

type CreateRoster = (onDrop: DropMall, limits: MallLimits, now: () => number) => Promise<MallRoster>;
const redis = useTestRedis();
const implementations: [string, CreateRoster][] = [
  ['memory', async (onDrop, limits, now) => createMallRoster(onDrop, limits, now)],
  ['redis', async (onDrop, limits, now) => redisMallRoster(await redis.connect(), onDrop, limits, now)],
];

describe.each(implementations)('mall roster (%s)', (_, createRoster) => {
  /** A roster with a 1 s idle limit on a clock the test sets (`at.now`), and the malls it dropped. */
  const idleRoster = async () => {
    const at = { now: 0 };
    const dropped: string[] = [];
    const roster = await createRoster(
      async (mallId) => void dropped.push(mallId),
      { idleMs: 1_000 },
      () => at.now,
    );
    return { at, dropped, roster };
  };

  it('drops the least recently used mall past its cap', async () => {
    const dropped: string[] = [];
    let now = 0;
    const roster = await createRoster(
      async (mallId) => void dropped.push(mallId),
      { maxMalls: 2, idleMs: 0 },
      () => (now += 1),
    );
    await roster.touch('a');
    await roster.touch('b');
    await roster.touch('a');
    await roster.touch('c');
    expect(dropped).toEqual(['b']);
    expect(await roster.mallIds()).toEqual(['a', 'c']);
  });

  it('drops malls idle past the idle limit, oldest first, and keeps the rest', async () => {
    const { at, dropped, roster } = await idleRoster();
    await roster.touch('early');
    at.now = 600;
    await roster.touch('later');
    at.now = 1_000;
    expect(await roster.mallIds()).toEqual(['later']);
    expect(dropped).toEqual(['early']);
    at.now = 1_500;
    await roster.touch('later');
    at.now = 2_400;
    expect(await roster.mallIds()).toEqual(['later']);
  });

  it('keeps a mall used after it was found idle: its drop is told so and the mall stays', async () => {
    let now = 0;
    const dropped: string[] = [];
    let roster: MallRoster | undefined;
    roster = await createRoster(
      async (mallId, stillUnused) => {
        // A request on the mall marks it used between the decision and the drop.
        if (mallId === 'busy') await roster?.touch('busy');
        if (await stillUnused()) dropped.push(mallId);
      },
      { idleMs: 1_000 },
      () => now,
    );
    await roster.touch('busy');
    await roster.touch('quiet');
    now = 5_000;
    await roster.touch('other');
    expect(dropped).toEqual(['quiet']);
    expect(await roster.mallIds()).toEqual(['busy', 'other']);
  });

  it("keeps a mall the cap chose when it is used before the cap's drop", async () => {
    let now = 0;
    const dropped: string[] = [];
    let roster: MallRoster | undefined;
    roster = await createRoster(
      async (mallId, stillUnused) => {
        await roster?.touch(mallId);
        if (await stillUnused()) dropped.push(mallId);
      },
      { maxMalls: 2, idleMs: 0 },
      () => (now += 1),
    );
    await roster.touch('a');
    await roster.touch('b');
    await roster.touch('c');
    expect(dropped).toEqual([]);
    expect(await roster.mallIds()).toEqual(['a', 'b', 'c']);
  });

  it('renews a mall on the roster, and adds none that is not', async () => {
    const { at, dropped, roster } = await idleRoster();
    await roster.touch('used');
    expect(await roster.renew('stranger')).toBe(false);
    expect(await roster.mallIds()).toEqual(['used']);
    at.now = 800;
    expect(await roster.renew('used')).toBe(true);
    at.now = 1_500;
    expect(await roster.mallIds()).toEqual(['used']);
    at.now = 2_000;
    expect(await roster.mallIds()).toEqual([]);
    expect(dropped).toEqual(['used']);
  });

  it('keeps a mall whose drop failed on the roster and drops it on a later run', async () => {
    let now = 0;
    let failing = true;
    const dropped: string[] = [];
    const roster = await createRoster(
      async (mallId) => {
        if (failing) throw new Error('the store is down');
        dropped.push(mallId);
      },
      { idleMs: 1_000 },
      () => now,
    );
    await roster.touch('kept');
    now = 2_000;
    await expect(roster.expire()).rejects.toThrow('the store is down');
    failing = false;
    expect(await roster.mallIds()).toEqual([]);
    expect(dropped).toEqual(['kept']);
  });

  it('adopts malls found at start as used then, keeping the last use of those it has', async () => {
    const { at, dropped, roster } = await idleRoster();
    await roster.touch('known');
    at.now = 800;
    await roster.adopt(['known', 'found']);
    at.now = 1_200;
    expect(await roster.mallIds()).toEqual(['found']);
    expect(dropped).toEqual(['known']);
  });

  it('refuses limits that cannot hold a mall', () => {
    expect(() => createMallRoster(async () => {}, { maxMalls: 0 })).toThrow(RangeError);
    expect(() => createMallRoster(async () => {}, { idleMs: -1 })).toThrow(RangeError);
  });
});

describe('idle expiry on a timer', () => {
  it('drops idle malls every period without any use, and stops when told', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const dropped: string[] = [];
      const roster = createMallRoster(
        async (mallId) => void dropped.push(mallId),
        { idleMs: 1_000 },
        () => now,
      );
      await roster.touch('left');
      const stop = expireEvery(roster, 500);
      now = 900;
      await vi.advanceTimersByTimeAsync(500);
      expect(dropped).toEqual([]);
      now = 1_400;
      await vi.advanceTimersByTimeAsync(500);
      expect(dropped).toEqual(['left']);
      await roster.touch('later');
      stop();
      now = 10_000;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(dropped).toEqual(['left']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('mall roster (redis, on Redis clock)', () => {
  it("expires idle malls by Redis's clock, whatever the clock of the replica that looks", async () => {
    const dropped: string[] = [];
    const onDrop = async (mallId: string) => void dropped.push(mallId);
    const shared = await redis.connect();
    const [a, b] = [
      redisMallRoster(shared, onDrop, { idleMs: 60 * 60 * 1000 }),
      redisMallRoster(shared, onDrop, { idleMs: 60 * 60 * 1000 }),
    ];
    await a.touch('kept');
    // Replica b's own clock runs two hours ahead: by it, `kept` would be idle.
    const ahead = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 2 * 60 * 60 * 1000);
    try {
      await b.touch('other');
      expect(await b.mallIds()).toEqual(['kept', 'other']);
    } finally {
      ahead.mockRestore();
    }
    expect(dropped).toEqual([]);
    const quick = redisMallRoster(shared, onDrop, { idleMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await quick.mallIds()).toEqual([]);
    expect(dropped.sort()).toEqual(['kept', 'other']);
  });
});

describe('mall roster (redis, reads marked later)', () => {
  /** A roster on Redis whose clock the test sets (`at.now`), and the set's last use of `shop`. */
  const rosterAt = async (idleMs: number) => {
    const shared = await redis.connect();
    const at = { now: 1_000 };
    const roster = redisMallRoster(
      shared,
      async () => {},
      { idleMs },
      () => at.now,
    );
    const lastUse = async () => Number(await shared.client.zscore(`${shared.prefix}malls`, 'shop'));
    return { shared, at, roster, lastUse };
  };

  it('lets a read of a mall marked moments ago through unmarked, and marks it when that moment has passed', async () => {
    // An idle expiry of 60 s: a read within 1 s (a sixtieth) of the last mark sends none.
    const { at, roster, lastUse } = await rosterAt(60_000);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      await roster.touch('shop');
      expect(await lastUse()).toBe(1_000);
      at.now = 1_500;
      expect(await roster.renew('shop', 'read')).toBe(true);
      expect(await lastUse()).toBe(1_000);
      // The read's use is marked when the second since the last mark has passed.
      await vi.advanceTimersByTimeAsync(500);
      await vi.waitFor(async () => expect(await lastUse()).toBe(1_500));
      // A read past that second, and any write, send their mark at once.
      at.now = 2_600;
      expect(await roster.renew('shop', 'read')).toBe(true);
      expect(await lastUse()).toBe(2_600);
      expect(await roster.renew('shop', 'write')).toBe(true);
      expect(await lastUse()).toBe(2_601);
      expect(await roster.renew('stranger', 'read')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks the use a read let through as of that read, though the clock has moved on, and leaves a mall dropped meanwhile dropped', async () => {
    const { shared, at, roster, lastUse } = await rosterAt(60_000);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      await roster.touch('shop');
      await roster.touch('gone');
      at.now = 1_200;
      expect(await roster.renew('shop', 'read')).toBe(true);
      expect(await roster.renew('gone', 'read')).toBe(true);
      // Another replica's cap dropped one of them (its last use is gone from the set).
      await shared.client.zrem(`${shared.prefix}malls`, 'gone');
      // The clock passes the idle expiry before the marks are sent.
      at.now = 70_000;
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitFor(async () => expect(await lastUse()).toBe(1_200));
      expect(await shared.client.zscore(`${shared.prefix}malls`, 'gone')).toBeNull();
      // Idle since that read, the mall is dropped.
      expect(await roster.mallIds()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the last use as it is when a read marked late was no later than it', async () => {
    const { shared, at, roster, lastUse } = await rosterAt(60_000);
    const scriptCalls = async () =>
      Number(/cmdstat_evalsha:calls=(\d+)/.exec(await shared.client.info('commandstats'))?.[1] ?? 0);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      await roster.touch('shop');
      expect(await roster.renew('shop', 'read')).toBe(true);
      const before = await scriptCalls();
      // The clock passes the idle expiry before the read's mark, as of that same millisecond, is sent.
      at.now = 70_000;
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitFor(async () => expect(await scriptCalls()).toBe(before + 1));
      // A drop that found the mall idle since its last use still finds that use.
      expect(await lastUse()).toBe(1_000);
      expect(await roster.mallIds()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks every read when malls never expire', async () => {
    const { roster, lastUse } = await rosterAt(0);
    await roster.touch('shop');
    expect(await roster.renew('shop', 'read')).toBe(true);
    expect(await lastUse()).toBe(1_001);
  });
});
