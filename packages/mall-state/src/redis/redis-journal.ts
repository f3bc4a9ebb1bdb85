// The request journals in Redis, shared by every replica: per mall a list of entries in arrival
// order (`<prefix>mall:<id>:journal`) and the estimated bytes it holds (`…:journal:bytes`), plus
// the bytes of every journal (`<prefix>journal:bytes`) and a sorted set of the journals by the
// number of their oldest entry (`<prefix>journal:malls`). One Lua script appends entries, each with
// the next number of a deployment-wide sequence, and after each drops its mall's oldest entries past
// the entry and byte bounds, then, while every journal together holds more than the overall bytes,
// the oldest entry of any mall (the mall whose oldest entry is oldest goes first) — atomically, so
// the journal of a mall lists every call whichever replica took it, in order, and the bounds hold
// for the deployment. It works that out on a model of the journals it touches and writes the
// outcome a journal at a time (a few commands per journal and call, not per entry). Entries are redacted before they are stored. The entries a replica records
// while one event-loop turn's I/O is handled go to Redis together, as one call of the script (a
// group commit, sent from `setImmediate` and written at once, not auto-pipelined: `directCommands`
// of redis-connection.ts), and while a call is under way the entries recorded meanwhile wait for
// its answer and go together in the next call (under load each call carries what arrived during
// the previous one's round trip): each caller's promise settles when the whole call does, so every
// entry is committed before its request is answered, and a failed call fails every one of them;
// reading or clearing a journal sends the entries waiting first, so it sees them in order.
// Both scripts are ioredis commands (`defineCommand`): sent by SHA-1 (EVALSHA), their text only
// when Redis does not hold it yet.
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
 * entry its JSON and its bytes. Gives 0. Works as if the entries came one by one — each numbered,
 * appended, its mall trimmed past the entry and byte bounds, then the oldest entry of any journal
 * dropped while the total is past its bound — but on a model of the journals it touches (their
 * lengths, bytes and oldest entries, read as far as needed), then writes the outcome per journal at
 * once: one RPUSH of a mall's entries and one INCRBY of its bytes, then for a journal that lost
 * entries one LTRIM, one DECRBY of its bytes and one ZADD of its new oldest entry (ZREM and DEL
 * once empty), and one INCRBY of the total. A journal within its bounds costs no command besides
 * the appending ones.
 */
const recordScript = `
local maxEntries, maxMallBytes, maxTotal = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local count = #KEYS - 3
local first = redis.call('INCRBY', KEYS[1], count) - count
local total = tonumber(redis.call('GET', KEYS[2]) or '0')
local change = 0
-- A journal touched: its entries before this call (old, unknown until read for one not appended
-- to), those read (peeked), this call's entries (new, pushed so far), and those dropped from its front.
local journals, touched = {}, {}
local function touch(list)
  local journal = { list = list, peeked = {}, new = {}, pushed = 0, dropped = 0, droppedBytes = 0, want = 2 }
  journals[list] = journal
  touched[#touched + 1] = journal
  return journal
end
-- The journal's j-th entry (seq and size) counting this call's after the old ones, read in growing runs.
local function entry(journal, j)
  if journal.old and j > journal.old then return journal.new[j - journal.old] end
  local peeked = journal.peeked
  if j > #peeked then
    local from = #peeked
    local to = math.max(j, 2 * from, from + journal.want)
    if journal.old then to = math.min(to, journal.old) end
    local items = redis.call('LRANGE', journal.list, from, to - 1)
    for _, item in ipairs(items) do
      local seq, size = string.match(item, '^(%d+) (%d+) ')
      peeked[#peeked + 1] = { seq = tonumber(seq), size = tonumber(size) }
    end
    if #items < to - from then journal.old = #peeked end
  end
  return peeked[j]
end
-- The journal's oldest entry now, or nil when it holds none.
local function oldest(journal)
  local j = journal.dropped + 1
  if journal.old and j > journal.old + journal.pushed then return nil end
  return entry(journal, j)
end
local function dropOldest(journal)
  local dropped = oldest(journal)
  if not dropped then return false end
  journal.dropped = journal.dropped + 1
  journal.droppedBytes = journal.droppedBytes + dropped.size
  if journal.bytes then journal.bytes = journal.bytes - dropped.size end
  total, change = total - dropped.size, change - dropped.size
  return true
end
-- The journals not touched yet by their oldest entry, as the sorted set holds them, read in growing runs.
local ranked, rankedAll, cursor = {}, false, 1
local function oldestUntouched()
  while true do
    if cursor > #ranked then
      if rankedAll then return nil end
      local from = #ranked
      local size = math.max(4, from)
      local items = redis.call('ZRANGE', KEYS[3], from, from + size - 1, 'WITHSCORES')
      for k = 1, #items, 2 do ranked[#ranked + 1] = { list = items[k], seq = tonumber(items[k + 1]) } end
      rankedAll = #items < 2 * size
      if cursor > #ranked then return nil end
    end
    local candidate = ranked[cursor]
    if not journals[candidate.list] then return candidate end
    cursor = cursor + 1
  end
end
-- The journal whose oldest entry is oldest of all, or nil when none holds any.
local function oldestJournal()
  local best, bestSeq
  for _, journal in ipairs(touched) do
    local head = oldest(journal)
    if head and (not bestSeq or head.seq < bestSeq) then best, bestSeq = journal, head.seq end
  end
  local untouched = oldestUntouched()
  if untouched and (not bestSeq or untouched.seq < bestSeq) then best = touch(untouched.list) end
  return best
end
for i = 1, count do
  local list = KEYS[3 + i]
  local journal = journals[list] or touch(list)
  local size = tonumber(ARGV[3 + 2 * i])
  journal.new[#journal.new + 1] = { seq = first + i, size = size, item = (first + i) .. ' ' .. size .. ' ' .. ARGV[2 + 2 * i] }
end
for _, journal in ipairs(touched) do
  local items, added = {}, 0
  for k, new in ipairs(journal.new) do items[k], added = new.item, added + new.size end
  journal.old = redis.call('RPUSH', journal.list, unpack(items)) - #items
  journal.bytes = redis.call('INCRBY', journal.list .. ':bytes', added) - added
  journal.want = #items + 1
end
for i = 1, count do
  local journal = journals[KEYS[3 + i]]
  journal.pushed = journal.pushed + 1
  local size = journal.new[journal.pushed].size
  journal.bytes, total, change = journal.bytes + size, total + size, change + size
  while journal.old + journal.pushed - journal.dropped > maxEntries or journal.bytes > maxMallBytes do
    if not dropOldest(journal) then break end
  end
  while total > maxTotal do
    local victim = oldestJournal()
    if not victim then break end
    dropOldest(victim)
  end
end
for _, journal in ipairs(touched) do
  if journal.dropped > 0 or journal.old == 0 or #journal.new == 0 then
    local head = oldest(journal)
    if journal.dropped > 0 then redis.call('LTRIM', journal.list, journal.dropped, -1) end
    if head then
      if journal.droppedBytes > 0 then redis.call('DECRBY', journal.list .. ':bytes', journal.droppedBytes) end
      redis.call('ZADD', KEYS[3], head.seq, journal.list)
    else
      redis.call('ZREM', KEYS[3], journal.list)
      redis.call('DEL', journal.list .. ':bytes')
    end
  end
end
if change ~= 0 then redis.call('INCRBY', KEYS[2], change) end
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
  readonly settle: { resolve: () => void; reject: (error: unknown) => void };
}

/** Creates the journal over the shared connection, bounded per mall and overall as `limits` say. */
export function redisJournal(shared: SharedRedis, limits: JournalLimits = {}): Journal {
  const { entries: maxEntries, mallBytes, bytes: maxBytes } = { ...defaultJournalLimits, ...limits };
  const keys = (mallId: string) => redisJournalKeys(shared, mallId);
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
            for (const { settle } of part) settle.resolve();
          },
          (error: unknown) => {
            for (const { settle } of part) settle.reject(error);
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
      const [list = ''] = keys(mallId);
      const entry = JSON.stringify(entryOf(0, kept.input, kept.queryText));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ list, entry, bytes: kept.bytes, settle: { resolve, reject } });
        if (waiting.length >= maxBatch) send();
        else if (underWay === 0) later();
      });
    },
    entries: (mallId, filter = {}) => {
      send();
      return shared.run(async (client) => {
        const [list = ''] = keys(mallId);
        const items = await client.lrange(list, 0, -1);
        return items.map(storedEntry).filter((entry) => matchesFilter(entry, filter));
      });
    },
    clear: (mallId) => {
      send();
      return shared.run(async (client) => {
        const [list = '', bytes = ''] = keys(mallId);
        return Number(await client.mallJournalClear(list, bytes, total, journals));
      });
    },
    bytes: () => {
      send();
      return shared.run(async (client) => Number((await client.get(total)) ?? 0));
    },
  };
}
