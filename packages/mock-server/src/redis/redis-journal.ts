// The request journals in Redis, shared by every replica: per mall a list of entries in arrival
// order (`<prefix>mall:<id>:journal`) and the estimated bytes it holds (`…:journal:bytes`). One
// Lua script appends an entry with the next number of a deployment-wide sequence and drops the
// oldest entries past the mall's entry and byte bounds, atomically, so the journal of a mall lists
// every call whichever replica took it, in order. Entries are redacted before they are stored.
// Both scripts are ioredis commands (`defineCommand`): sent by SHA-1 (EVALSHA), their text only
// when Redis does not hold it yet.
// The overall byte bound of the in-memory journal has no counterpart here: the roster caps the
// malls, so at most `maxMalls × mallBytes` are kept.
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
      entry: string,
      entryBytes: number,
      maxEntries: number,
      maxBytes: number,
    ): Result<number, Context>;
    /** {@link clearScript}: gives how many entries went. */
    mallJournalClear(list: string, bytes: string): Result<number, Context>;
  }
}

/** KEYS: list, bytes, sequence. ARGV: entry JSON, its bytes, max entries, max bytes. */
const recordScript = `
local sequence = redis.call('INCR', KEYS[3])
redis.call('RPUSH', KEYS[1], sequence .. ' ' .. ARGV[2] .. ' ' .. ARGV[1])
local bytes = redis.call('INCRBY', KEYS[2], ARGV[2])
while redis.call('LLEN', KEYS[1]) > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4]) do
  local oldest = redis.call('LPOP', KEYS[1])
  if not oldest then break end
  bytes = redis.call('DECRBY', KEYS[2], tonumber(string.match(oldest, '^%d+ (%d+) ')))
end
return sequence
`;

/** KEYS: list, bytes. Empties the journal; gives how many entries it held. */
const clearScript = `
local held = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return held
`;

/** An entry as stored: `<sequence> <bytes> <entry JSON>`. */
function storedEntry(item: string): JournalEntry {
  const first = item.indexOf(' ');
  const second = item.indexOf(' ', first + 1);
  return { ...(JSON.parse(item.slice(second + 1)) as JournalEntry), sequence: Number(item.slice(0, first)) };
}

/** Creates the journal over the shared connection, bounded per mall as `limits` say. */
export function redisJournal(shared: SharedRedis, limits: JournalLimits = {}): Journal {
  const { entries: maxEntries, mallBytes } = { ...defaultJournalLimits, ...limits };
  const keys = (mallId: string) => [
    `${mallKey(shared, mallId)}journal`,
    `${mallKey(shared, mallId)}journal:bytes`,
  ];
  const sequence = `${shared.prefix}journal:sequence`;
  shared.client.defineCommand('mallJournalRecord', { numberOfKeys: 3, lua: recordScript });
  shared.client.defineCommand('mallJournalClear', { numberOfKeys: 2, lua: clearScript });
  return {
    record(mallId, input) {
      const kept = keptInput(input, mallBytes);
      const entry = JSON.stringify(entryOf(0, kept.input));
      const [list = '', bytes = ''] = keys(mallId);
      return shared.run(async (client) => {
        await client.mallJournalRecord(list, bytes, sequence, entry, kept.bytes, maxEntries, mallBytes);
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
        return Number(await client.mallJournalClear(list, bytes));
      }),
  };
}
