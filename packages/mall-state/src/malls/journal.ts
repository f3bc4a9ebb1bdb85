// The request journal of each mall: what a QA engineer's app sent (secrets redacted) and what it
// got, in order, bounded in entries and bytes per mall and in bytes overall (oldest dropped first).
// The interface and the in-memory journal of one process (which redacts when read, off the request
// path); replicas share redis/redis-journal.ts, built from the same entry and bound rules.

import type { AnswerLoss } from './fault-rules.js';

/** One journaled request. */
export interface JournalEntry {
  readonly sequence: number;
  /** When the request arrived, at the mall's clock (ISO 8601). */
  readonly receivedAt: string;
  readonly api: string;
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly body: unknown;
  readonly status: number;
  /** The stage that answered (`answer`, `validate-request`, `faults`, …). */
  readonly answeredBy: string;
  readonly durationMs: number;
  /** What the validating proxy found wrong with the request or the answer (absent elsewhere). */
  readonly violations?: readonly string[];
  /**
   * The request rules that refused it (`credentials`, `scope`, `rate-limit`, `request-schema` or a
   * named rule of the spec; at most {@link maxRefusedBy}); absent when no rule refused it.
   */
  readonly refusedBy?: readonly string[];
  /**
   * How a lost-answer fault took the answer (absent elsewhere): `status` is then the status the
   * mall answered with, which the client never received.
   */
  readonly lostAnswer?: AnswerLoss;
}

/** The most rules a journal entry names as having refused its request. */
export const maxRefusedBy = 8;

/** Which entries to select; every given field must match. */
export interface JournalFilter {
  readonly api?: string;
  readonly method?: string;
  readonly path?: string;
  readonly operationId?: string;
  readonly status?: number;
  /** Only entries after this sequence number. */
  readonly after?: number;
  /** Only entries with (true) or without (false) violations the validating proxy found. */
  readonly violated?: boolean;
}

/** What is recorded per request; kept as it is and turned into a {@link JournalEntry} when read. */
export interface JournalInput extends Omit<JournalEntry, 'sequence' | 'receivedAt' | 'query'> {
  /** When the request arrived, at the mall's clock (epoch milliseconds). */
  readonly receivedAtMs: number;
  readonly query: URLSearchParams;
}

/** Per-mall journals (in this process's memory, or in Redis: redis/redis-journal.ts). */
export interface Journal {
  record(mallId: string, input: JournalInput): Promise<void>;
  /** The mall's entries in arrival order, filtered. */
  entries(mallId: string, filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Empties a mall's journal; gives how many entries it held. */
  clear(mallId: string): Promise<number>;
  /** The estimated bytes every mall's journal holds together (what the overall bound counts). */
  bytes(): Promise<number>;
}

/** Field names whose values never reach the journal (credentials and tokens). */
const secretKeys = /^(client_secret|refresh_token|access_token|password|code|authorization)$/i;

/** A copy of a value with every secret-named field replaced by `[redacted]`. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      secretKeys.test(key) ? '[redacted]' : redactSecrets(inner),
    ]),
  );
}

/** Whether an entry passes a filter. */
export const matchesFilter = (entry: JournalEntry, filter: JournalFilter) =>
  (filter.api === undefined || entry.api === filter.api) &&
  (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
  (filter.path === undefined || entry.path === filter.path) &&
  (filter.operationId === undefined || entry.operationId === filter.operationId) &&
  (filter.status === undefined || entry.status === filter.status) &&
  (filter.after === undefined || entry.sequence > filter.after) &&
  (filter.violated === undefined || (entry.violations?.length ?? 0) > 0 === filter.violated);

/** A request as the in-memory journal keeps it: the query as its text, not the parsed URL's parameters. */
type KeptInput = Omit<JournalInput, 'query'> & { readonly query: string };

interface Recorded {
  readonly mallId: string;
  readonly sequence: number;
  readonly input: KeptInput;
  /** Estimated bytes kept for the entry. */
  readonly bytes: number;
  /** False once trimmed or cleared (the overall queue drops it lazily). */
  kept: boolean;
}

/** The bounds of the journal. */
export interface JournalLimits {
  /** Entries kept per mall (default 10,000). */
  readonly entries?: number;
  /** Estimated bytes kept per mall (default 16 MiB); a larger body is kept as a note of its size. */
  readonly mallBytes?: number;
  /** Estimated bytes kept over every mall (default 128 MiB). */
  readonly bytes?: number;
}

/** The defaults of {@link JournalLimits}. */
export const defaultJournalLimits = {
  entries: 10_000,
  mallBytes: 16 * 2 ** 20,
  bytes: 128 * 2 ** 20,
} as const;

/** Fixed cost counted per entry besides its path, query and body. */
const entryOverhead = 256;

/** The size of a body as JSON (what it cost to send), 0 for none. */
const bodyBytes = (body: unknown): number =>
  body === null || body === undefined ? 0 : (JSON.stringify(body)?.length ?? 0);

/**
 * What is kept of a request and its estimated bytes: the input as it is, or with a body larger
 * than a mall's bytes replaced by a note of its size; and the query's text.
 */
export function keptInput(
  input: JournalInput,
  mallBytes: number,
): { input: JournalInput; bytes: number; queryText: string } {
  const size = bodyBytes(input.body);
  const queryText = input.query.toString();
  const fixed = entryOverhead + input.path.length + queryText.length;
  return fixed + size <= mallBytes
    ? { input, bytes: fixed + size, queryText }
    : {
        input: { ...input, body: `[a body of ${size} bytes, over the journal's bound]` },
        bytes: fixed + 64,
        queryText,
      };
}

/** Entries in arrival order, trimmed at the front without copying on every removal. */
class Queue<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  shift(): T | undefined {
    const item = this.items[this.head];
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  values(): T[] {
    return this.items.slice(this.head);
  }
  /** Keeps the items `keep` accepts (a compaction). */
  retain(keep: (item: T) => boolean): void {
    this.items = this.values().filter(keep);
    this.head = 0;
  }
}

/** The last time turned into ISO 8601 text, and that text: entries recorded together share it. */
let lastTime = { ms: Number.NaN, iso: '' };

/** Epoch milliseconds as ISO 8601 text. */
function isoTime(ms: number): string {
  if (ms !== lastTime.ms) lastTime = { ms, iso: new Date(ms).toISOString() };
  return lastTime.iso;
}

/** An entry's query: each parameter's text (a list when repeated), a secret-named one redacted whole. */
type QueryRecord = Readonly<Record<string, string | readonly string[]>>;

/** The most query texts whose entry query is kept (clients repeat their queries). */
const keptQueries = 512;
/** The entry query of each query text met lately. */
const queryRecords = new Map<string, QueryRecord>();

/** The entry query of a query text (parsed as `parsed` when given), made once per text met lately. */
function queryRecordOf(text: string, parsed?: URLSearchParams): QueryRecord {
  const known = queryRecords.get(text);
  if (known) return known;
  if (queryRecords.size >= keptQueries) queryRecords.clear();
  const query = parsed ?? new URLSearchParams(text);
  const record: Record<string, string | string[]> = {};
  if (query.size > 0)
    for (const key of new Set(query.keys())) {
      const values = query.getAll(key);
      record[key] = secretKeys.test(key) ? '[redacted]' : values.length === 1 ? (values[0] ?? '') : values;
    }
  queryRecords.set(text, Object.freeze(record));
  return record;
}

/** The fields an entry takes from its input as they are (every one but those {@link entryOf} makes). */
const copiedFields = [
  'api',
  'method',
  'path',
  'operationId',
  'status',
  'answeredBy',
  'durationMs',
  'violations',
  'refusedBy',
  'lostAnswer',
] as const;
type Made = 'sequence' | 'receivedAt' | 'query' | 'body';
// Every field of an entry is either made or copied: adding one to JournalEntry fails here until listed.
const everyFieldListed: [Exclude<keyof JournalEntry, Made | (typeof copiedFields)[number]>] extends [never]
  ? true
  : never = true;
void everyFieldListed;

/**
 * The entry of a recorded request, with secrets redacted: its query is `queryText` (`parsed` when
 * the request's parsed query is at hand). Fields absent from the input are absent from the entry.
 */
export function entryOf(
  sequence: number,
  input: Omit<JournalInput, 'query'>,
  queryText: string,
  parsed?: URLSearchParams,
): JournalEntry {
  const { body } = input;
  const entry: Record<string, unknown> = {
    sequence,
    receivedAt: isoTime(input.receivedAtMs),
    query: queryRecordOf(queryText, parsed),
    body: body === null ? null : redactSecrets(body),
  };
  for (const field of copiedFields) if (input[field] !== undefined) entry[field] = input[field];
  return entry as unknown as JournalEntry;
}

/**
 * Creates per-mall journals bounded in entries and bytes per mall and in bytes overall: past a
 * bound the oldest entries (of the mall, or of any mall) are dropped first.
 */
export function createJournal(limits: JournalLimits = {}): Journal {
  const { entries: maxEntries, mallBytes, bytes: maxBytes } = { ...defaultJournalLimits, ...limits };
  const byMall = new Map<string, { queue: Queue<Recorded>; bytes: number }>();
  // Every kept entry in arrival order (plus dropped ones not yet passed), for the overall bound.
  const overall = new Queue<Recorded>();
  let dropped = 0;
  let total = 0;
  let sequence = 0;
  const dropOldest = (mallId: string) => {
    const mall = byMall.get(mallId);
    const oldest = mall?.queue.shift();
    if (!mall || !oldest) return;
    oldest.kept = false;
    dropped += 1;
    mall.bytes -= oldest.bytes;
    total -= oldest.bytes;
    if (mall.queue.length === 0) byMall.delete(mallId);
  };
  return {
    async record(mallId, input) {
      let mall = byMall.get(mallId);
      if (!mall) {
        mall = { queue: new Queue(), bytes: 0 };
        byMall.set(mallId, mall);
      }
      const kept = keptInput(input, mallBytes);
      // The query's text, not its parameters: they hold the whole parsed URL of the request.
      const recorded: Recorded = {
        mallId,
        sequence: ++sequence,
        kept: true,
        input: { ...kept.input, query: kept.queryText },
        bytes: kept.bytes,
      };
      mall.queue.push(recorded);
      overall.push(recorded);
      mall.bytes += recorded.bytes;
      total += recorded.bytes;
      while (mall.queue.length > maxEntries || mall.bytes > mallBytes) dropOldest(mallId);
      while (total > maxBytes) {
        const oldest = overall.shift();
        if (!oldest) break;
        if (oldest.kept) dropOldest(oldest.mallId);
        dropped -= 1;
      }
      // Entries dropped per mall stay in the overall queue until passed; compact when they dominate.
      if (dropped > 1024 && dropped * 2 > overall.length) {
        overall.retain((entry) => entry.kept);
        dropped = 0;
      }
    },
    entries: async (mallId, filter = {}) =>
      (byMall.get(mallId)?.queue.values() ?? [])
        .map((recorded) => entryOf(recorded.sequence, recorded.input, recorded.input.query))
        .filter((entry) => matchesFilter(entry, filter)),
    async clear(mallId) {
      const mall = byMall.get(mallId);
      if (!mall) return 0;
      const cleared = mall.queue.length;
      for (const entry of mall.queue.values()) entry.kept = false;
      dropped += cleared;
      total -= mall.bytes;
      byMall.delete(mallId);
      return cleared;
    },
    bytes: async () => total,
  };
}
