// A typed client of the mocks' control API (`/__mock/`), for tests: malls, fixtures, snapshots,
// the request journal and its checks, event deliveries, API coverage, faults, the mall's clock and
// its rate-limit buckets. openapi-fetch over the control API's generated types; this file adds the
// method names tests call and turns a refusal into a ControlError with the envelope's violations.

import type { AnswerLoss, FaultAction, FaultRule, JournalEntry, JournalFilter } from '@mall-api/mall-state';
import type { components, operations, paths } from '@mall-api/specs/types/control';
import createClient from 'openapi-fetch';
import type { CoverageReport } from '../api-coverage/coverage-report.js';
import type { ErrorEnvelope, Violation } from '../http/error-envelope.js';
import { deliveriesFailure, duplicatesFailure, verifyFailure } from './verify-report.js';

type Fixture = components['schemas']['Fixture'];
type Snapshot = components['schemas']['Snapshot'];
type JournalQuery = NonNullable<operations['listJournal']['parameters']['query']>;
type DuplicatesQuery = NonNullable<operations['getDuplicates']['parameters']['query']>;
type DeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

/** One delivery attempt of a mall's event, as its delivery log shows it. */
export type Delivery = components['schemas']['WebhookLog'];

/** The duplicate creates of a mall and the requests created more than once (`getDuplicates`). */
export type Duplicates = components['schemas']['Duplicates'];

/** Which malls' requests a coverage report counts, what it measures and the minimum of each measure. */
export type CoverageRequest = Omit<components['schemas']['CoverageRequest'], 'format'>;

/** How to (re)create a mall's data. */
export type ResetTarget = 'seed' | 'empty' | { seed: number } | { fixture: string };

/** A fault rule to add: which requests, what happens, and for how many calls (default: every call). */
export interface FaultRequest {
  /** Which requests (as the control document describes them); none given, every request. */
  match?: components['schemas']['FaultMatch'];
  action:
    | FaultAction
    | { kind: 'delay'; minMs: number; maxMs?: number }
    | (Omit<Extract<FaultAction, { kind: 'profile' }>, 'seed'> & { seed?: number })
    | { kind: 'lost-answer'; by?: AnswerLoss };
  times?: number;
}

/** What `verify` expects: requests matching the filter, exactly `times` of them (default: at least one). */
export interface Expectation extends JournalFilter {
  times?: number;
}

/** What `verify` expects of the creates in range: this many duplicates (0: no create was duplicated). */
export interface DuplicateExpectation extends DuplicatesQuery {
  duplicates: number;
}

/** What `verify` expects of the mall's deliveries matching the filter: exactly `count` of them. */
export interface DeliveryExpectation {
  deliveries: DeliveriesQuery & { count: number };
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
  /** Resolves when the creates in range hold that many duplicates; otherwise throws, listing the requests created more than once. */
  verify(mallId: string, expectation: DuplicateExpectation): Promise<Duplicates>;
  /**
   * Resolves when exactly `count` of the mall's deliveries match (once the mock's deliveries under
   * way are done); otherwise throws, listing the mall's latest deliveries.
   */
  verify(mallId: string, expectation: DeliveryExpectation): Promise<Delivery[]>;
  /** The mall's delivery attempts matching `filter`, oldest first (the control API's `listWebhookDeliveries`). */
  deliveries(mallId: string, filter?: DeliveriesQuery): Promise<Delivery[]>;
  /** The duplicate creates among the mall's creates in range (the control API's `getDuplicates`). */
  duplicates(mallId: string, filter?: DuplicatesQuery): Promise<Duplicates>;
  /** What the malls' requests exercised of the APIs (operations, documented responses, request rules). */
  coverage(request: CoverageRequest): Promise<CoverageReport>;
  /** The coverage report as Markdown or JUnit XML. */
  coverageDocument(request: CoverageRequest, format: 'markdown' | 'junit'): Promise<string>;
  addFault(mallId: string, fault: FaultRequest): Promise<FaultRule>;
  faults(mallId: string): Promise<FaultRule[]>;
  removeFault(mallId: string, id: number): Promise<void>;
  clearFaults(mallId: string): Promise<number>;
  clock(mallId: string): Promise<{ now: string; offsetMs: number }>;
  advanceClock(mallId: string, ms: number): Promise<{ now: string; offsetMs: number }>;
  setClock(mallId: string, at: Date | string): Promise<{ now: string; offsetMs: number }>;
  resetRateLimits(mallId: string): Promise<void>;
  /** Sends the mall's events to `url` (with `key` as `X-API-Key`); a URL not allowed is a ControlError (422). */
  setWebhookReceiver(mallId: string, url: string, key?: string): Promise<void>;
  /** Sends a test event: the sample of event `eventNo`. */
  sendTestEvent(mallId: string, eventNo: number): Promise<void>;
  /** Sends a logged delivery again. */
  resendDelivery(mallId: string, logId: string): Promise<void>;
}

/**
 * Creates a control client for the mock at `baseUrl` (any of its ports).
 * @param options.token the control token, when the mock was started with one
 */
export function createControlClient(baseUrl: string, options: { token?: string } = {}): ControlClient {
  const api = createClient<paths>({
    baseUrl: baseUrl.replace(/\/$/, ''),
    ...(options.token ? { headers: { 'x-mock-control-token': options.token } } : {}),
  });
  /** The data of a successful call; a refusal throws a ControlError with the envelope's message. */
  const data = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
    const { data: value, error, response } = await call;
    if (response.ok && value !== undefined) return value;
    const envelope = error as ErrorEnvelope | undefined;
    throw new ControlError(
      response.status,
      envelope?.error?.message ?? `control call failed with ${response.status}`,
      (envelope?.error?.more_info?.violations as Violation[] | undefined) ?? [],
    );
  };
  /** A call that answers nothing the client returns: resolves once it succeeded. */
  const done = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>) => {
    await data(call);
  };
  const mall = (mallId: string) => ({ params: { path: { mall: mallId } } });
  const queried = <Q>(mallId: string, query: Q) => ({ params: { path: { mall: mallId }, query } });
  const filtered = (mallId: string, filter: JournalFilter = {}) => queried(mallId, filter as JournalQuery);
  const client: ControlClient = {
    malls: async () => (await data(api.GET('/__mock/malls'))).malls,
    reset: (mallId, to) => done(api.POST('/__mock/malls/{mall}/reset', { ...mall(mallId), body: { to } })),
    loadFixture: async (mallId, fixture) =>
      (await data(api.POST('/__mock/malls/{mall}/fixtures', { ...mall(mallId), body: fixture as Fixture })))
        .counts ?? {},
    snapshot: (mallId) => data(api.GET('/__mock/malls/{mall}/snapshot', mall(mallId))),
    restore: (mallId, snapshot) =>
      done(api.PUT('/__mock/malls/{mall}/snapshot', { ...mall(mallId), body: snapshot as Snapshot })),
    journal: async (mallId, filter) =>
      (await data(api.GET('/__mock/malls/{mall}/journal', filtered(mallId, filter))))
        .entries as JournalEntry[],
    count: async (mallId, filter) =>
      (await data(api.GET('/__mock/malls/{mall}/journal/count', filtered(mallId, filter)))).count,
    clearJournal: async (mallId) =>
      (await data(api.DELETE('/__mock/malls/{mall}/journal', mall(mallId)))).cleared,
    verify: (async (
      mallId: string,
      expectation: Expectation | DuplicateExpectation | DeliveryExpectation,
    ) => {
      if ('deliveries' in expectation) {
        const { count, ...filter } = expectation.deliveries;
        const matching = await client.deliveries(mallId, filter);
        if (matching.length === count) return matching;
        throw new Error(
          deliveriesFailure(mallId, filter, count, matching.length, await client.deliveries(mallId)),
        );
      }
      if ('duplicates' in expectation) {
        const { duplicates: expected, ...filter } = expectation;
        const found = await client.duplicates(mallId, filter);
        if (found.duplicates === expected) return found;
        throw new Error(duplicatesFailure(mallId, filter, expected, found));
      }
      const { times, ...filter } = expectation;
      const matching = await client.journal(mallId, filter);
      if (times === undefined ? matching.length > 0 : matching.length === times) return matching;
      const received = await client.journal(mallId);
      throw new Error(verifyFailure(mallId, filter, times, matching.length, received));
    }) as ControlClient['verify'],
    duplicates: (mallId, filter = {}) =>
      data(api.GET('/__mock/malls/{mall}/journal/duplicates', queried(mallId, filter))),
    deliveries: async (mallId, filter = {}) =>
      (await data(api.GET('/__mock/malls/{mall}/webhooks/deliveries', queried(mallId, filter)))).deliveries,
    coverage: async (request) =>
      (await data(api.POST('/__mock/coverage', { body: { ...request, format: 'json' } }))) as CoverageReport,
    coverageDocument: (request, format) =>
      data(api.POST('/__mock/coverage', { body: { ...request, format }, parseAs: 'text' })),
    addFault: async (mallId, fault) =>
      // The stored rule types keep their lists read-only; the body is sent as it is.
      (await data(
        api.POST('/__mock/malls/{mall}/faults', {
          ...mall(mallId),
          body: fault as components['schemas']['FaultRequest'],
        }),
      )) as FaultRule,
    faults: async (mallId) =>
      (await data(api.GET('/__mock/malls/{mall}/faults', mall(mallId)))).faults as FaultRule[],
    removeFault: (mallId, id) =>
      done(api.DELETE('/__mock/malls/{mall}/faults/{id}', { params: { path: { mall: mallId, id } } })),
    clearFaults: async (mallId) =>
      (await data(api.DELETE('/__mock/malls/{mall}/faults', mall(mallId)))).cleared,
    clock: (mallId) => data(api.GET('/__mock/malls/{mall}/clock', mall(mallId))),
    advanceClock: (mallId, ms) =>
      data(api.POST('/__mock/malls/{mall}/clock', { ...mall(mallId), body: { advanceMs: ms } })),
    setClock: (mallId, at) =>
      data(
        api.POST('/__mock/malls/{mall}/clock', {
          ...mall(mallId),
          body: { at: typeof at === 'string' ? at : at.toISOString() },
        }),
      ),
    resetRateLimits: (mallId) => done(api.DELETE('/__mock/malls/{mall}/rate-limits', mall(mallId))),
    setWebhookReceiver: (mallId, url, key) =>
      done(
        api.PUT('/__mock/malls/{mall}/webhooks/receiver', {
          ...mall(mallId),
          body: { url, key },
        }),
      ),
    sendTestEvent: (mallId, eventNo) =>
      done(api.POST('/__mock/malls/{mall}/webhooks/test', { ...mall(mallId), body: { event_no: eventNo } })),
    resendDelivery: (mallId, logId) =>
      done(
        api.POST('/__mock/malls/{mall}/webhooks/logs/{log_id}/resend', {
          params: { path: { mall: mallId, log_id: logId } },
          // A POST to the control API is JSON, even one without a body.
          headers: { 'content-type': 'application/json' },
        }),
      ),
  };
  return client;
}
