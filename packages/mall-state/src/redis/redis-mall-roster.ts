// The malls in use across replicas: a sorted set of each mall's last use (`<prefix>malls`), so the
// cap and the idle expiry hold for the deployment. Uses and the idle cut-off are read from Redis's
// clock (TIME, inside the scripts), the one clock replicas share (tests may give a simulated one).
// Each use raises the mall's score above its last one, so "unused since the decision" is "its score
// is still the one the decision saw": the drop's `stillUnused` is one script that asks it and, when
// the mall is unused, deletes every key of the mall (journal, buckets, clock, fault rules), so a
// use right after it keeps what it writes; the mall leaves the set only once its drop has finished
// and only if still unused. Of replicas finding the same idle mall, each drops it in turn under its
// lock; a later one finds it gone. Adopting the store's malls at start keeps the set's last uses,
// so a restart keeps no idle mall alive. `renew` is the touch of a mall already on the set (sent
// with a request's rate-limit decision); a read of a mall this replica marked less than a sixtieth
// of the idle expiry ago sends no mark then, but later (`markOwed`). A write always marks before its work.
import type { Result } from 'ioredis';
import { checkedMallLimits, type DropMall, type MallLimits, type MallRoster } from '../malls/mall-roster.js';
import { clockKey } from './redis-clock-offsets.js';
import { globEscaped, mallKey, type SharedRedis } from './redis-connection.js';
import { faultsKey } from './redis-fault-rules.js';
import { clearJournalLua, redisJournalKeys } from './redis-journal.js';

/** Sets `now` to ARGV[`arg`] when given, else to Redis's clock in milliseconds. */
const nowOf = (arg: number) => `
local now = tonumber(ARGV[${arg}])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end`;

/**
 * KEYS: roster. ARGV: mall, now (or ''), idle milliseconds (0: none expire), 'listed' to mark a
 * mall only if it is on the roster (else ''), how long ago the use was (milliseconds). Marks the
 * mall used then (above its last use; a use marked late that is no later than the last one changes
 * nothing, so it never fails a drop that found the mall idle since); gives how many malls are in
 * use, then the malls idle that long by then with their last use (id, score, id, score…); or only
 * -1 when asked for a listed mall that is not (nothing changed).
 */
const touchScript = `${nowOf(2)}
local late = tonumber(ARGV[5]) > 0
now = now - tonumber(ARGV[5])
local last = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if not last and ARGV[4] == 'listed' then return {-1} end
if last and last >= now then
  if late then now = last else now = last + 1 end
end
if now ~= last then redis.call('ZADD', KEYS[1], now, ARGV[1]) end
local idle = {}
if tonumber(ARGV[3]) > 0 then
  idle = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]), 'WITHSCORES')
end
table.insert(idle, 1, redis.call('ZCARD', KEYS[1]))
return idle`;

/** KEYS: roster. ARGV: idle milliseconds, now (or ''). Gives the malls idle that long, with their last use. */
const idleScript = `${nowOf(2)}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'WITHSCORES')`;

/** KEYS: roster. ARGV: now (or ''), then malls. Adds the malls it lacks as used now. */
const adoptScript = `${nowOf(1)}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'NX', now, ARGV[i]) end
return 0`;

/**
 * KEYS: roster, then the mall's journal keys (redisJournalKeys), its clock and its fault rules.
 * ARGV: mall, last use, the glob of the mall's other keys. When the mall was not used after that
 * last use, empties its journal (the overall bytes kept right) and deletes every key of the mall,
 * giving 1; else 0.
 */
const claimScript = `
local last = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if not last or last > tonumber(ARGV[2]) then return 0 end
${clearJournalLua('KEYS[2]', 'KEYS[3]', 'KEYS[4]', 'KEYS[5]')}
redis.call('DEL', KEYS[6], KEYS[7])
local cursor = '0'
repeat
  local found = redis.call('SCAN', cursor, 'MATCH', ARGV[3], 'COUNT', 200)
  cursor = found[1]
  if #found[2] > 0 then redis.call('DEL', unpack(found[2])) end
until cursor == '0'
return 1`;

/** KEYS: roster. ARGV: mall, last use. Removes the mall if it was not used after that last use. */
const removeUnusedScript = `
local last = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if last and last <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link touchScript}: how many malls are in use, then the idle ones and their last use. */
    mallRosterTouch(
      roster: string,
      mallId: string,
      now: string,
      idleMs: number,
      only: 'listed' | '',
      agoMs: number,
    ): Result<[number, ...string[]], Context>;
    /** {@link idleScript}: the idle malls and their last use. */
    mallRosterIdle(roster: string, idleMs: number, now: string): Result<string[], Context>;
    /** {@link adoptScript}. */
    mallRosterAdopt(roster: string, now: string, ...mallIds: string[]): Result<number, Context>;
    /** {@link claimScript} (its seven keys, then its three arguments): 1 when the mall was still unused. */
    mallRosterClaim(...keysThenArgs: string[]): Result<number, Context>;
    /** {@link removeUnusedScript}: 1 when the mall was removed. */
    mallRosterRemoveUnused(roster: string, mallId: string, lastUse: string): Result<number, Context>;
  }
}

/** What a read whose mark waits answers: its mall is on the roster. */
const listedAlready: Promise<boolean> = Promise.resolve(true);

/** Pairs of `[id, score]` from a flat WITHSCORES reply. */
function withScores(flat: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i] as string, flat[i + 1] as string]);
  return pairs;
}

/**
 * Creates the roster over the shared connection; `now` replaces Redis's clock (tests pass a
 * simulated one).
 */
export function redisMallRoster(
  shared: SharedRedis,
  onDrop: DropMall,
  limits: MallLimits = {},
  now?: () => number,
): MallRoster {
  const { maxMalls, idleMs } = checkedMallLimits(limits);
  const key = `${shared.prefix}malls`;
  const simulated = () => (now ? String(now()) : '');
  shared.client.defineCommand('mallRosterTouch', { numberOfKeys: 1, lua: touchScript });
  shared.client.defineCommand('mallRosterIdle', { numberOfKeys: 1, lua: idleScript });
  shared.client.defineCommand('mallRosterAdopt', { numberOfKeys: 1, lua: adoptScript });
  shared.client.defineCommand('mallRosterClaim', { numberOfKeys: 7, lua: claimScript });
  shared.client.defineCommand('mallRosterRemoveUnused', { numberOfKeys: 1, lua: removeUnusedScript });
  // Malls whose drop this replica has under way (a second touch does not start another).
  const dropping = new Set<string>();
  // When this replica last marked each mall (its own clock, or the simulated one), and the malls
  // whose reads it let through unmarked since, with the time of the last such read: their use is
  // marked, as of that read, when `readMarkMs` has passed.
  const clock = now ?? (() => performance.now());
  const readMarkMs = idleMs / 60; // how long a read's mark may wait (see the header)
  const markedAt = new Map<string, number>();
  const owed = new Map<string, number>();
  const forgetOldMarks = () => {
    const before = clock() - readMarkMs;
    for (const [mallId, at] of markedAt) if (at <= before) markedAt.delete(mallId);
  };
  const drop = async (found: readonly [string, string][]) => {
    for (const [mallId, lastUse] of found) {
      if (dropping.has(mallId)) continue;
      dropping.add(mallId);
      try {
        // Gone from the set: another drop of it has finished meanwhile (nothing left to drop).
        await onDrop(mallId, async () => {
          const glob = `${globEscaped(mallKey(shared, mallId))}*`;
          const cached = [clockKey(shared, mallId), faultsKey(shared, mallId)] as const;
          const claimed = await shared.run((client) =>
            client.mallRosterClaim(
              key,
              ...redisJournalKeys(shared, mallId),
              ...cached,
              mallId,
              lastUse,
              glob,
            ),
          );
          for (const gone of cached) shared.cache.forget(gone);
          if (claimed === 1) markedAt.delete(mallId);
          return claimed === 1;
        });
        await shared.run((client) => client.mallRosterRemoveUnused(key, mallId, lastUse));
      } finally {
        dropping.delete(mallId);
      }
    }
  };
  const expire = async () => {
    if (idleMs === 0) return;
    await drop(withScores(await shared.run((client) => client.mallRosterIdle(key, idleMs, simulated()))));
  };
  /**
   * Marks a mall used `agoMs` ago (only if listed, when asked), then drops idle malls and any past
   * the cap.
   */
  const touch = async (mallId: string, only: 'listed' | '', agoMs = 0) => {
    const sent = clock() - agoMs;
    // One script (sent by its SHA-1): note the use, count the malls, find the idle ones.
    const [count, ...idle] = await shared.run((client) =>
      client.mallRosterTouch(key, mallId, simulated(), idleMs, only, agoMs),
    );
    if (count < 0) {
      markedAt.delete(mallId);
      return false;
    }
    markedAt.set(mallId, sent);
    // Malls dropped by other replicas stay here until their marks are too old to count.
    if (markedAt.size > 2 * maxMalls) forgetOldMarks();
    const idleMalls = withScores(idle);
    await drop(idleMalls);
    const held = count - idleMalls.length;
    if (held > maxMalls)
      await drop(
        withScores(await shared.run((client) => client.zrange(key, 0, held - maxMalls - 1, 'WITHSCORES'))),
      );
    return true;
  };
  /**
   * Marks the use of the malls whose reads went unmarked, as of their last such read (a mall
   * dropped since stays dropped: those reads answered before the drop), and forgets the marks too
   * old to let a read through.
   */
  const markOwed = () => {
    const due = [...owed];
    owed.clear();
    for (const [mallId, readAt] of due)
      touch(mallId, 'listed', Math.max(0, clock() - readAt)).catch(() => {});
    forgetOldMarks();
  };
  return {
    touch: async (mallId) => void (await touch(mallId, '')),
    renew(mallId, use = 'write') {
      const at = markedAt.get(mallId);
      if (use === 'write' || at === undefined || clock() - at >= readMarkMs) return touch(mallId, 'listed');
      if (owed.size === 0) setTimeout(markOwed, Math.max(0, at + readMarkMs - clock())).unref();
      owed.set(mallId, clock());
      return listedAlready;
    },
    async adopt(mallIds) {
      if (mallIds.length > 0)
        await shared.run((client) => client.mallRosterAdopt(key, simulated(), ...mallIds));
    },
    expire,
    async mallIds() {
      await expire();
      return (await shared.run((client) => client.zrange(key, 0, -1))).sort();
    },
  };
}
