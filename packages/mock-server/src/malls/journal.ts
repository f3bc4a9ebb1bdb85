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
}

/** Per-mall journals. */
export interface Journal {
  record(mallId: string, entry: Omit<JournalEntry, 'sequence'>): void;
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
  (filter.after === undefined || entry.sequence > filter.after);

/** Creates per-mall journals keeping at most `limit` entries per mall (oldest dropped first). */
export function createJournal(limit = 10_000): Journal {
  const byMall = new Map<string, JournalEntry[]>();
  let sequence = 0;
  return {
    record(mallId, entry) {
      const list = byMall.get(mallId) ?? [];
      list.push({
        ...entry,
        query: redactSecrets(entry.query) as JournalEntry['query'],
        body: redactSecrets(entry.body),
        sequence: ++sequence,
      });
      if (list.length > limit) list.splice(0, list.length - limit);
      byMall.set(mallId, list);
    },
    entries: (mallId, filter = {}) => (byMall.get(mallId) ?? []).filter((entry) => matches(entry, filter)),
    clear(mallId) {
      const cleared = byMall.get(mallId)?.length ?? 0;
      byMall.delete(mallId);
      return cleared;
    },
  };
}
