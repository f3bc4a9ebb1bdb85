// The request journals in Redis, shared by every replica: per mall a list of entries in arrival
// order (`<prefix>mall:<id>:journal`) and the estimated bytes it holds (`…:journal:bytes`), plus
// the bytes of every journal (`<prefix>journal:bytes`) and a sorted set of the journals by the
// number of their oldest entry (`<prefix>journal:malls`). One Lua script appends entries numbered
// from a deployment-wide sequence and drops the oldest past the mall's bounds, then the oldest of
// any mall while all together pass the overall bytes — atomically, so a mall's journal lists every
// call whichever replica took it, in order, and the bounds hold for the deployment. Entries are
// redacted before they are stored. A group commit: the entries recorded while one event-loop turn's
// I/O is handled go as one call of the script (sent from `setImmediate`, written at once: see
// redis-connection.ts), and while a call is under way the entries recorded meanwhile wait for its
// answer and go together in the next call. Each caller's promise settles when its call does, so
// every entry is committed before its request is answered and a failed call fails all of them;
// reading or clearing a journal sends the waiting entries first, so it sees them in order. Both
// scripts are ioredis commands (`defineCommand`): sent by SHA-1, their text only when Redis lacks it.
import type { Result } from 'ioredis';
import {
  defaultJournalLimits,
  entryOf,
  type Journal,
  type JournalEntry,
  type JournalLimits,
  keptInput,
  matchesFilter,
} from '../malls/journal.js';
import { mallKey, type SharedRedis } from './redis-connection.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link recordScript}: gives 0. */
    mallJournalRecord(...keysThenArgs: (string | number)[]): Result<number, Context>;
    /** {@link clearScript}: gives how many entries went. */
    mallJournalClear(list: string, bytes: string, total: string, journals: string): Result<number, Context>;
  }
}

/**
 * KEYS: sequence, total bytes, journals by oldest entry, then per entry its mall's list (whose bytes
 * key is the list's key and `:bytes`). ARGV: max entries, max mall bytes, max total bytes, then per
 * entry its JSON and its bytes. Appends the entries in order; gives 0. A list that was empty (its
 * RPUSH gives 1) is not in the journals by oldest entry yet, and a journal within its bounds costs
 * no command besides the appending ones.
 */
const recordScript = `
local maxEntries, maxMallBytes, maxTotal = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local function dropOldest(list)
  local oldest = redis.call('LPOP', list)
  if not oldest then
    redis.call('ZREM', KEYS[3], list)
    return nil
  end
  local size = tonumber(string.match(oldest, '^%d+ (%d+) '))
  redis.call('DECRBY', list .. ':bytes', size)
  redis.call('DECRBY', KEYS[2], size)
  local following = redis.call('LINDEX', list, 0)
  if following then
    redis.call('ZADD', KEYS[3], 'XX', tonumber(string.match(following, '^(%d+) ')), list)
  else
    redis.call('ZREM', KEYS[3], list)
    redis.call('DEL', list .. ':bytes')
  end
  return size
end
local count = #KEYS - 3
local sequence = redis.call('INCRBY', KEYS[1], count) - count
for i = 1, count do
  local list, entry, size = KEYS[3 + i], ARGV[2 + 2 * i], ARGV[3 + 2 * i]
  sequence = sequence + 1
  local length = redis.call('RPUSH', list, sequence .. ' ' .. size .. ' ' .. entry)
  if length == 1 then redis.call('ZADD', KEYS[3], sequence, list) end
  local bytes = redis.call('INCRBY', list .. ':bytes', size)
  local total = redis.call('INCRBY', KEYS[2], size)
  while length > maxEntries or bytes > maxMallBytes do
    local dropped = dropOldest(list)
    if not dropped then break end
    length, bytes, total = length - 1, bytes - dropped, total - dropped
  end
  while total > maxTotal do
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
    if not oldest then break end
    total = total - (dropOldest(oldest) or 0)
  end
end
return 0
`;

/**
 * Lua that empties a journal and takes it out of the overall bytes and the journals by oldest
 * entry, its four keys given as Lua expressions (in {@link redisJournalKeys}' order).
 */
export const clearJournalLua = (list: string, bytes: string, total: string, journals: string): string => `
redis.call('DECRBY', ${total}, tonumber(redis.call('GET', ${bytes}) or '0'))
redis.call('ZREM', ${journals}, ${list})
redis.call('DEL', ${list}, ${bytes})`;

/** KEYS: list, bytes, total bytes, journals by oldest entry. Empties the journal; gives how many entries it held. */
const clearScript = `
local held = redis.call('LLEN', KEYS[1])
${clearJournalLua('KEYS[1]', 'KEYS[2]', 'KEYS[3]', 'KEYS[4]')}
return held
`;

/** A mall's journal keys: its list and bytes, then every journal's total bytes and journals by oldest entry. */
export function redisJournalKeys(shared: SharedRedis, mallId: string): [string, string, string, string] {
  return [
    `${mallKey(shared, mallId)}journal`,
    `${mallKey(shared, mallId)}journal:bytes`,
    `${shared.prefix}journal:bytes`,
    `${shared.prefix}journal:malls`,
  ];
}

/** An entry as stored: `<sequence> <bytes> <entry JSON>`. */
function storedEntry(item: string): JournalEntry {
  const first = item.indexOf(' ');
  const second = item.indexOf(' ', first + 1);
  return { ...(JSON.parse(item.slice(second + 1)) as JournalEntry), sequence: Number(item.slice(0, first)) };
}

/** The most entries one call of the record script carries (more wait for the next call). */
const maxBatch = 64;

/** An entry waiting for the next call of the record script, and its caller's settling. */
interface Pending {
  readonly list: string;
  readonly entry: string;
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Creates the journal over the shared connection, bounded per mall and overall as `limits` say. */
export function redisJournal(shared: SharedRedis, limits: JournalLimits = {}): Journal {
  const { entries: maxEntries, mallBytes, bytes: maxBytes } = { ...defaultJournalLimits, ...limits };
  const sequence = `${shared.prefix}journal:sequence`;
  const [, , total, journals] = redisJournalKeys(shared, '');
  shared.client.defineCommand('mallJournalRecord', { lua: recordScript });
  shared.client.defineCommand('mallJournalClear', { numberOfKeys: 4, lua: clearScript });
  let waiting: Pending[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  /** Calls of the record script sent and not yet answered. */
  let underWay = 0;
  /** Sends the waiting entries after the I/O of this event-loop turn is handled (once per turn). */
  const later = () => {
    scheduled ??= setImmediate(send);
  };
  /** Sends the entries waiting, in order, as calls of the record script (none when none wait). */
  const send = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const batch = waiting;
    waiting = [];
    for (let start = 0; start < batch.length; start += maxBatch) {
      const part = batch.slice(start, start + maxBatch);
      const args: (string | number)[] = [3 + part.length, sequence, total, journals];
      for (const { list } of part) args.push(list);
      args.push(maxEntries, mallBytes, maxBytes);
      for (const { entry, bytes } of part) args.push(entry, bytes);
      underWay += 1;
      shared
        .run((client) => client.mallJournalRecord(...args))
        .then(
          () => {
            for (const { resolve } of part) resolve();
          },
          (error: unknown) => {
            for (const { reject } of part) reject(error);
          },
        )
        .finally(() => {
          underWay -= 1;
          // The entries recorded while the call was under way go in the next one.
          if (underWay === 0 && waiting.length > 0) later();
        });
    }
  };
  return {
    record(mallId, input) {
      const kept = keptInput(input, mallBytes);
      const [list] = redisJournalKeys(shared, mallId);
      const entry = JSON.stringify(entryOf(0, kept.input, kept.queryText, input.query));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ list, entry, bytes: kept.bytes, resolve, reject });
        if (waiting.length >= maxBatch) send();
        else if (underWay === 0) later();
      });
    },
    entries: (mallId, filter = {}) => {
      send();
      return shared.run(async (client) => {
        const [list] = redisJournalKeys(shared, mallId);
        const items = await client.lrange(list, 0, -1);
        return items.map(storedEntry).filter((entry) => matchesFilter(entry, filter));
      });
    },
    clear: (mallId) => {
      send();
      return shared.run(async (client) => {
        const [list, bytes] = redisJournalKeys(shared, mallId);
        return Number(await client.mallJournalClear(list, bytes, total, journals));
      });
    },
    bytes: () => {
      send();
      return shared.run(async (client) => Number((await client.get(total)) ?? 0));
    },
  };
}
