// The request journal of each mall: what a QA engineer's app sent (method, path, operation, query,
// body with secrets redacted) and what it got (status, which stage answered, timing), in order,
// bounded per mall. Filtering, counting and clearing are what the control API and `verify` use.

/** One journaled request. */
export interface JournalEntry {
  readonly sequence: number;
  /** When the request arrived, at the mall's clock (ISO 8601). */
  readonly receivedAt: string;
  readonly api: string;
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly body: unknown;
  readonly status: number;
  /** The stage that answered (`answer`, `validate-request`, `faults`, …). */
  readonly answeredBy: string;
  readonly durationMs: number;
  /** What the validating proxy found wrong with the request or the answer (absent elsewhere). */
  readonly violations?: readonly string[];
}

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

/** Per-mall journals. */
export interface Journal {
  record(mallId: string, input: JournalInput): void;
  entries(mallId: string, filter?: JournalFilter): JournalEntry[];
  clear(mallId: string): number;
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

const matches = (entry: JournalEntry, filter: JournalFilter) =>
  (filter.api === undefined || entry.api === filter.api) &&
  (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
  (filter.path === undefined || entry.path === filter.path) &&
  (filter.operationId === undefined || entry.operationId === filter.operationId) &&
  (filter.status === undefined || entry.status === filter.status) &&
  (filter.after === undefined || entry.sequence > filter.after) &&
  (filter.violated === undefined || (entry.violations?.length ?? 0) > 0 === filter.violated);

interface Recorded {
  readonly sequence: number;
  readonly input: JournalInput;
}

/** The entry of a recorded request, with secrets redacted (done when read, not on the request path). */
const entryOf = ({ sequence, input: { receivedAtMs, query, body, ...rest } }: Recorded): JournalEntry => {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    record[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return {
    ...rest,
    sequence,
    receivedAt: new Date(receivedAtMs).toISOString(),
    query: redactSecrets(record) as JournalEntry['query'],
    body: redactSecrets(body),
  };
};

/** Creates per-mall journals answering at most the last `limit` entries per mall (older ones are dropped). */
export function createJournal(limit = 10_000): Journal {
  const byMall = new Map<string, Recorded[]>();
  let sequence = 0;
  return {
    record(mallId, input) {
      let list = byMall.get(mallId);
      if (!list) {
        list = [];
        byMall.set(mallId, list);
      }
      list.push({ sequence: ++sequence, input });
      // Trim in batches (a quarter of the bound at a time), so a full journal costs O(1) per request.
      if (list.length > limit + Math.ceil(limit / 4)) list.splice(0, list.length - limit);
    },
    entries: (mallId, filter = {}) =>
      (byMall.get(mallId) ?? [])
        .slice(-limit)
        .map(entryOf)
        .filter((entry) => matches(entry, filter)),
    clear(mallId) {
      const cleared = byMall.get(mallId)?.length ?? 0;
      byMall.delete(mallId);
      return cleared;
    },
  };
}
