// A typed client of the mocks' control API (`/__mock/`), for tests: reset a mall, load a fixture,
// snapshot and restore, read and verify the request journal, inject faults, move the mall's clock
// and empty its rate-limit buckets. A refused control call throws a ControlError carrying the
// envelope's message and violations.
import type { FaultAction, FaultMatch, FaultRule } from '../malls/fault-rules.js';
import type { JournalEntry, JournalFilter } from '../malls/journal.js';
import { verifyFailure } from './verify-report.js';

/** How to (re)create a mall's data. */
export type ResetTarget = 'seed' | 'empty' | { seed: number } | { fixture: string };

/** A fault rule to add: which requests, what happens, and for how many calls (default: every call). */
export interface FaultRequest {
  match?: FaultMatch;
  action: FaultAction | { kind: 'delay'; minMs: number; maxMs?: number };
  times?: number;
}

/** What `verify` expects: requests matching the filter, exactly `times` of them (default: at least one). */
export interface Expectation extends JournalFilter {
  times?: number;
}

/** A control call the mock refused. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly violations: readonly { name: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** The control API of one mock process. */
export interface ControlClient {
  malls(): Promise<string[]>;
  reset(mallId: string, to?: ResetTarget): Promise<void>;
  loadFixture(mallId: string, fixture: unknown): Promise<Record<string, number>>;
  snapshot(mallId: string): Promise<unknown>;
  restore(mallId: string, snapshot: unknown): Promise<void>;
  journal(mallId: string, filter?: JournalFilter): Promise<JournalEntry[]>;
  count(mallId: string, filter?: JournalFilter): Promise<number>;
  clearJournal(mallId: string): Promise<number>;
  /** Resolves when the journal holds what was expected; otherwise throws, listing the closest requests the mall received. */
  verify(mallId: string, expectation: Expectation): Promise<JournalEntry[]>;
  addFault(mallId: string, fault: FaultRequest): Promise<FaultRule>;
  faults(mallId: string): Promise<FaultRule[]>;
  removeFault(mallId: string, id: number): Promise<void>;
  clearFaults(mallId: string): Promise<number>;
  clock(mallId: string): Promise<{ now: string; offsetMs: number }>;
  advanceClock(mallId: string, ms: number): Promise<{ now: string; offsetMs: number }>;
  setClock(mallId: string, at: Date | string): Promise<{ now: string; offsetMs: number }>;
  resetRateLimits(mallId: string): Promise<void>;
}

const filterQuery = (filter: JournalFilter = {}) => {
  const query = new URLSearchParams(
    Object.entries(filter).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();
  return query ? `?${query}` : '';
};

/**
 * Creates a control client for the mock at `baseUrl` (any of its ports).
 * @param options.token the control token, when the mock was started with one
 */
export function createControlClient(baseUrl: string, options: { token?: string } = {}): ControlClient {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}/__mock/${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { 'x-mock-control-token': options.token } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const payload = (await response.json()) as T & {
      error?: { message: string; more_info?: { violations?: { name: string; message: string }[] } };
    };
    if (!response.ok) {
      throw new ControlError(
        response.status,
        payload.error?.message ?? `control call failed with ${response.status}`,
        payload.error?.more_info?.violations ?? [],
      );
    }
    return payload;
  };
  const mall = (mallId: string) => `malls/${encodeURIComponent(mallId)}`;
  const client: ControlClient = {
    malls: async () => (await call<{ malls: string[] }>('GET', 'malls')).malls,
    reset: async (mallId, to) =>
      void (await call('POST', `${mall(mallId)}/reset`, to === undefined ? {} : { to })),
    loadFixture: async (mallId, fixture) =>
      (await call<{ counts?: Record<string, number> }>('POST', `${mall(mallId)}/fixtures`, fixture)).counts ??
      {},
    snapshot: (mallId) => call('GET', `${mall(mallId)}/snapshot`),
    restore: async (mallId, snapshot) => void (await call('PUT', `${mall(mallId)}/snapshot`, snapshot)),
    journal: async (mallId, filter) =>
      (await call<{ entries: JournalEntry[] }>('GET', `${mall(mallId)}/journal${filterQuery(filter)}`))
        .entries,
    count: async (mallId, filter) =>
      (await call<{ count: number }>('GET', `${mall(mallId)}/journal/count${filterQuery(filter)}`)).count,
    clearJournal: async (mallId) =>
      (await call<{ cleared: number }>('DELETE', `${mall(mallId)}/journal`)).cleared,
    async verify(mallId, { times, ...filter }) {
      const matching = await client.journal(mallId, filter);
      if (times === undefined ? matching.length > 0 : matching.length === times) return matching;
      const received = await client.journal(mallId);
      throw new Error(verifyFailure(mallId, filter, times, matching.length, received));
    },
    addFault: (mallId, fault) => call('POST', `${mall(mallId)}/faults`, fault),
    faults: async (mallId) => (await call<{ faults: FaultRule[] }>('GET', `${mall(mallId)}/faults`)).faults,
    removeFault: async (mallId, id) => void (await call('DELETE', `${mall(mallId)}/faults/${id}`)),
    clearFaults: async (mallId) =>
      (await call<{ cleared: number }>('DELETE', `${mall(mallId)}/faults`)).cleared,
    clock: (mallId) => call('GET', `${mall(mallId)}/clock`),
    advanceClock: (mallId, ms) => call('POST', `${mall(mallId)}/clock`, { advanceMs: ms }),
    setClock: (mallId, at) =>
      call('POST', `${mall(mallId)}/clock`, { at: typeof at === 'string' ? at : at.toISOString() }),
    resetRateLimits: async (mallId) => void (await call('DELETE', `${mall(mallId)}/rate-limits`)),
  };
  return client;
}
