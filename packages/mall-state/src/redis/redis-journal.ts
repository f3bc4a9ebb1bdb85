// The request journals in Redis, shared by every replica: per mall a list of entries in arrival
// order (`<prefix>mall:<id>:journal`) and the estimated bytes it holds (`…:journal:bytes`), plus
// the bytes of every journal (`<prefix>journal:bytes`) and a sorted set of the journals by the
// number of their oldest entry (`<prefix>journal:malls`). One Lua script appends an entry with the
// next number of a deployment-wide sequence, drops the mall's oldest entries past its entry and
// byte bounds, then, while every journal together holds more than the overall bytes, the oldest
// entry of any mall (the mall whose oldest entry is oldest goes first) — atomically, so the
// journal of a mall lists every call whichever replica took it, in order, and the bounds hold for
// the deployment. Entries are redacted before they are stored. Both scripts are ioredis commands
// (`defineCommand`): sent by SHA-1 (EVALSHA), their text only when Redis does not hold it yet.
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
    /** {@link recordScript}: gives the entry's sequence number. */
    mallJournalRecord(
      list: string,
      bytes: string,
      sequence: string,
      total: string,
      journals: string,
      entry: string,
      entryBytes: number,
      maxEntries: number,
      maxMallBytes: number,
      maxTotalBytes: number,
    ): Result<number, Context>;
    /** {@link clearScript}: gives how many entries went. */
    mallJournalClear(list: string, bytes: string, total: string, journals: string): Result<number, Context>;
  }
}

/**
 * KEYS: list, bytes, sequence, total bytes, journals by oldest entry. ARGV: entry JSON, its bytes,
 * max entries, max mall bytes, max total bytes. A mall's bytes key is its list key and `:bytes`.
 */
const recordScript = `
local sequence = redis.call('INCR', KEYS[3])
redis.call('RPUSH', KEYS[1], sequence .. ' ' .. ARGV[2] .. ' ' .. ARGV[1])
redis.call('ZADD', KEYS[5], 'NX', sequence, KEYS[1])
local bytes = redis.call('INCRBY', KEYS[2], ARGV[2])
local total = redis.call('INCRBY', KEYS[4], ARGV[2])
local function dropOldest(list)
  local oldest = redis.call('LPOP', list)
  if not oldest then
    redis.call('ZREM', KEYS[5], list)
    return nil
  end
  local size = tonumber(string.match(oldest, '^%d+ (%d+) '))
  redis.call('DECRBY', list .. ':bytes', size)
  total = redis.call('DECRBY', KEYS[4], size)
  local following = redis.call('LINDEX', list, 0)
  if following then
    redis.call('ZADD', KEYS[5], 'XX', tonumber(string.match(following, '^(%d+) ')), list)
  else
    redis.call('ZREM', KEYS[5], list)
    redis.call('DEL', list .. ':bytes')
  end
  return size
end
while redis.call('LLEN', KEYS[1]) > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4]) do
  local size = dropOldest(KEYS[1])
  if not size then break end
  bytes = bytes - size
end
while total > tonumber(ARGV[5]) do
  local oldest = redis.call('ZRANGE', KEYS[5], 0, 0)[1]
  if not oldest then break end
  dropOldest(oldest)
end
return sequence
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

/** Creates the journal over the shared connection, bounded per mall and overall as `limits` say. */
export function redisJournal(shared: SharedRedis, limits: JournalLimits = {}): Journal {
  const { entries: maxEntries, mallBytes, bytes: maxBytes } = { ...defaultJournalLimits, ...limits };
  const keys = (mallId: string) => redisJournalKeys(shared, mallId);
  const sequence = `${shared.prefix}journal:sequence`;
  const [, , total, journals] = redisJournalKeys(shared, '');
  shared.client.defineCommand('mallJournalRecord', { numberOfKeys: 5, lua: recordScript });
  shared.client.defineCommand('mallJournalClear', { numberOfKeys: 4, lua: clearScript });
  return {
    record(mallId, input) {
      const kept = keptInput(input, mallBytes);
      const entry = JSON.stringify(entryOf(0, kept.input));
      const [list = '', bytes = ''] = keys(mallId);
      return shared.run(async (client) => {
        await client.mallJournalRecord(
          list,
          bytes,
          sequence,
          total,
          journals,
          entry,
          kept.bytes,
          maxEntries,
          mallBytes,
          maxBytes,
        );
      });
    },
    entries: (mallId, filter = {}) =>
      shared.run(async (client) => {
        const [list = ''] = keys(mallId);
        const items = await client.lrange(list, 0, -1);
        return items.map(storedEntry).filter((entry) => matchesFilter(entry, filter));
      }),
    clear: (mallId) =>
      shared.run(async (client) => {
        const [list = '', bytes = ''] = keys(mallId);
        return Number(await client.mallJournalClear(list, bytes, total, journals));
      }),
    bytes: () => shared.run(async (client) => Number((await client.get(total)) ?? 0)),
  };
}
