// The sandbox's boundary, types only (`@mall-api/sandbox/protocol`): the call the front layer hands
// over, the domain outcomes the sandbox answers, the outcome of a change to a mall's data, and the
// gateway the mocks use. Outcomes say what happened, not how HTTP says it (the mock server maps
// them); nothing here exists at run time, so `import type` works without the sandbox installed.

import type { StoredRecord } from '@mall-api/mall-state';
import type { ApiName } from '@mall-api/spec-model';
import type { components as admin } from '@mall-api/specs/types/admin';
import type { components as control } from '@mall-api/specs/types/control';

/** The APIs the sandbox answers for: the platform's APIs, as the spec model lists them. */
export type SandboxApi = ApiName;

/** Where a violated rule points. */
export type ViolationLocation = 'path' | 'query' | 'body';

/** One violated rule: the parameter or body field and what is wrong with it. */
export interface Violation {
  readonly location: ViolationLocation;
  readonly name: string;
  readonly message: string;
}

/**
 * One call to the sandbox, already authenticated, limited, scoped and validated by the front layer,
 * with its parameters converted to the types the spec's schemas give them (numbers, booleans,
 * arrays for comma lists).
 */
export interface SandboxCall {
  readonly api: SandboxApi;
  readonly operationId: string;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** The caller's mall (admin and analytics: the token's); undefined for the collection API. */
  readonly mallId: string | undefined;
}

/**
 * Why the sandbox refused: the caller may not read what it asked for (another mall's statistics),
 * the record does not exist, the input breaks a rule, the mall changed meanwhile (the same request
 * may succeed again), or the store keeping the mall cannot be reached.
 */
export type RefusalReason = 'forbidden' | 'not-found' | 'invalid' | 'conflict' | 'unavailable';

/** A refused call or change: nothing it would have written was kept. */
export interface Refusal {
  readonly ok: false;
  readonly reason: RefusalReason;
  readonly message: string;
  /** The fields that broke a rule (none for a record that does not exist or an unavailable store). */
  readonly violations: readonly Violation[];
}

/** A read answered: a record, a page, a count or a report. */
export interface Found {
  readonly ok: true;
  readonly kind: 'found';
  readonly body: unknown;
  /**
   * The body as JSON text, for an answer the sandbox keeps and gives again unchanged (analytics
   * reports): serialized once, then sent as is.
   */
  readonly json?: string;
}

/** A write that was applied whole. */
export interface Written {
  readonly ok: true;
  readonly kind: 'created' | 'updated' | 'deleted';
  readonly body: unknown;
}

/** The outcome of one item of a request that named several (`request.product_no`). */
export interface ItemOutcome {
  /** Position of the item in the request (from 0). */
  readonly index: number;
  readonly product_no: number;
  /** Why the item was not applied; absent when it was. */
  readonly refused?: { readonly reason: RefusalReason; readonly message: string };
}

/** A write of several items of which some were applied (the others refused, each saying why). */
export interface PartlyApplied {
  readonly ok: true;
  readonly kind: 'partly-applied';
  /** The applied items, in the shape of the whole write's answer. */
  readonly body: unknown;
  /** Every item of the request, in request order. */
  readonly items: readonly ItemOutcome[];
}

/** What the sandbox answers to a call. */
export type SandboxOutcome = Found | Written | PartlyApplied | Refusal;

/** How a mall is (re)created: from the sample data of a seed, empty, or from a named fixture. */
export type MallStart = { readonly seed: number } | 'empty' | { readonly fixture: string };

/** How many records a mall holds (placements: every section and main-group entry). */
export interface MallCounts {
  readonly categories: number;
  readonly products: number;
  readonly bundles: number;
  readonly placements: number;
}

/** A change to a mall's data (reset, fixture, restore): what the mall now holds, or why nothing changed. */
export type MallOutcome = { readonly ok: true; readonly counts: MallCounts } | Refusal;

/** Whether a mall is still unused since it was found idle (the mocks' roster answers; see mall-state's roster). */
export type StillUnused = () => Promise<boolean>;

/** An event claimed for delivery by one dispatcher. */
export interface ClaimedEvent {
  readonly seq: number;
  readonly eventNo: number;
  /** The JSON body to POST, as text. */
  readonly body: string;
  readonly traceId: string;
  /** The attempt this is (1 for the first). */
  readonly attempt: number;
  /** How the log shows this attempt. */
  readonly logType: 'G' | 'R' | 'T';
  readonly owner: string;
}

/** One entry of the delivery log, as `listWebhookLogs` answers it: the admin spec's `WebhookLog`, whole. */
export type DeliveryLogEntry = Readonly<Required<admin['schemas']['WebhookLog']>> & StoredRecord;

/** Where one mall's events are POSTed, and the `X-API-Key` they carry: the control spec's `WebhookReceiver`. */
export type WebhookReceiver = Readonly<control['schemas']['WebhookReceiver']>;

/** How one attempt went. */
export interface DeliveryAttempt {
  /** When it was sent (ms since the epoch). */
  readonly requestedAt: number;
  readonly endpoint: string;
  /** Whether the receiver accepted it (a 2xx answer). */
  readonly success: boolean;
  /** The receiver's status, or null when none came (timeout, refused connection). */
  readonly status: number | null;
  readonly responseBody: string | null;
}

/** One attempt to settle: the event, how the attempt went and when to try again (undefined: never). */
export interface SettledAttempt {
  readonly claimed: ClaimedEvent;
  readonly attempt: DeliveryAttempt;
  readonly retryAt: number | undefined;
}

/**
 * The malls' events as a dispatcher uses them: every committed write the spec reports recorded an
 * event in its mall's outbox; the dispatcher claims each due one (under a lease: one dispatcher
 * across replicas), sends it and settles the attempt (logged; retried when it asks).
 */
export interface SandboxEvents {
  /** Sets who hears that a mall's outbox changed here (a write, or a catch-up of a shared store). */
  onChange(listener: (mallId: string) => void): void;
  /**
   * Claims the mall's first `max` events due at `now`, in commit order, for `owner` until `now +
   * leaseMs`; none when none is due.
   */
  claim(mallId: string, owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedEvent[]>;
  /** Logs attempts; each event is done, or due again at its `retryAt` when given and the attempt failed. */
  settle(mallId: string, settled: readonly SettledAttempt[]): Promise<void>;
  /** When the mall's next waiting event may be claimed; undefined when none waits. */
  nextDue(mallId: string): Promise<number | undefined>;
  /** Puts a logged delivery's event in the outbox again (a resend); false when the mall has no such entry. */
  resend(mallId: string, logId: string): Promise<boolean>;
  /** Puts a test send of the event's documented sample in the outbox; false for an event the spec lacks or a mall that does not exist. */
  sendTest(mallId: string, eventNo: number): Promise<boolean>;
  /** The malls whose outbox holds events (at start: the ones a stopped process left). */
  pending(): Promise<string[]>;
  /** The event numbers the spec declares. */
  eventNumbers(): readonly number[];
  /** The mall's delivery log, oldest first (as `listWebhookLogs` answers it, unpaged); empty for a mall that does not exist. */
  deliveries(mallId: string): Promise<readonly DeliveryLogEntry[]>;
  /** The receiver registered for the mall (kept with its records: shared by replicas); undefined: none. */
  receiverOf(mallId: string): Promise<WebhookReceiver | undefined>;
  /** Registers the mall's receiver (undefined: removes it), starting the mall as new malls start when it does not exist. */
  register(mallId: string, receiver: WebhookReceiver | undefined): Promise<void>;
}

/** The sandbox as the mocks' answer stage uses it. */
export interface SandboxGateway {
  /** Whether the sandbox answers this operation (else the documented example does). */
  handles(api: SandboxApi, operationId: string): boolean;
  /** Answers a call as an outcome; rejects only on misuse (an operation it does not handle). */
  handle(call: SandboxCall): Promise<SandboxOutcome>;
}

/**
 * The sandbox's malls, as the mocks' control API uses them. A reset, fixture or restore settles
 * once the mall holds its new records; changes to one mall run in turn.
 */
export interface SandboxMallsGateway extends SandboxGateway {
  reset(mallId: string, to?: MallStart): Promise<MallOutcome>;
  loadFixture(mallId: string, fixture: unknown): Promise<MallOutcome>;
  /** The mall's records as plain JSON; undefined for a mall that does not exist (none is created). */
  snapshot(mallId: string): Promise<unknown>;
  restore(mallId: string, snapshot: unknown): Promise<MallOutcome>;
  /** The malls that exist, in id order. */
  mallIds(): Promise<string[]>;
  /** How many records the malls held in this process keep, by table (the sandbox's size here). */
  heldRecords(): Promise<Readonly<Record<string, number>>>;
  /**
   * Removes a mall and its records; false when it did not exist. With `stillUnused`, that is asked
   * just before, in the mall's turn, and a mall used since is kept (false); it is not asked about
   * a mall that does not exist in this process's storage.
   */
  drop(mallId: string, stillUnused?: StillUnused): Promise<boolean>;
  /** Whether the sandbox's storage answers now (a shared database). */
  ready(): Promise<boolean>;
  /** The malls' events and their delivery. */
  readonly events: SandboxEvents;
  close(): Promise<void>;
}
