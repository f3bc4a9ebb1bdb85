// The control API's operations, one typed task each (WireMock's model): a table keyed by the
// operation ids of specs/control whose calls are typed by its generated types
// (`@mall-api/specs/types/control`), so a missing or misspelt operation is a type error. The rules
// beyond shape are control-rules.ts'; access, routing and validation are the control branch's.
// Example mode has no mall data and sends no events (409).
import { randomInt } from 'node:crypto';
import type { FaultAction, FaultLatency, JournalEntry, JournalFilter } from '@mall-api/mall-state';
import type { MallOutcome, MallStart } from '@mall-api/sandbox/protocol';
import type { ApiSpecs, SpecModel } from '@mall-api/spec-model';
import type { components, operations } from '@mall-api/specs/types/control';
import { coverageTask } from '../api-coverage/coverage-task.js';
import type { MallReset, MockMalls } from '../malls/mock-malls.js';
import { refusalReply } from '../operations/sandbox-outcome.js';
import { errorReply, type Reply, violationsReply } from '../pipeline/reply.js';
import {
  clockViolation,
  delayViolation,
  deliveryFaultViolation,
  operationViolation,
  profileViolation,
} from './control-rules.js';
import { duplicateCreates } from './duplicate-creates.js';

type Schemas = components['schemas'];

/** A validated call of control operation `Id`: its mall and its converted parameters and body. */
interface ControlCall<Id extends keyof operations> {
  readonly mallId: string;
  readonly path: NonNullable<operations[Id]['parameters']['path']>;
  readonly query: NonNullable<operations[Id]['parameters']['query']>;
  readonly body: operations[Id] extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : undefined;
}

/** One task per control operation. */
export type ControlHandlers = {
  readonly [Id in keyof operations]: (call: ControlCall<Id>) => Reply | Promise<Reply>;
};

const ok = (body: unknown, status = 200): Reply => ({ status, headers: {}, body });

const exampleMode = (what = 'there is no mall data to change') =>
  errorReply(409, `The mocks run in example mode (--examples): ${what}.`);
const noEvents = () => exampleMode('no mall sends events');
const queued = (): Reply => ok({ queued: true }, 202);

/** The reply to a change to a mall's data: what the mall now holds, or the refusal's envelope. */
const changeReply = (change: MallReset): Reply =>
  change.ok ? ok({ ok: true, ...(change.counts ? { counts: change.counts } : {}) }) : refusalReply(change);

/** What a reset starts the mall from (undefined: the server's seed). */
function mallStart(to: Schemas['MallStart'] | undefined): MallStart | undefined {
  if (to === 'empty') return 'empty';
  if (typeof to !== 'object' || to === null) return undefined;
  if ('fixture' in to && typeof to.fixture === 'string') return { fixture: to.fixture };
  return 'seed' in to && typeof to.seed === 'number' ? { seed: to.seed } : undefined;
}

/**
 * A fault action as stored: a delay's longest time defaults to its shortest, a profile without a
 * seed gets a random one (a 32-bit seed, shown in the stored rule so the run can be replayed), and a
 * lost answer is dropped unless it says otherwise.
 */
function storedAction(action: Schemas['FaultAction']): FaultAction {
  const { kind, minMs = 0, maxMs = minMs, status = 500, retryAfterSeconds } = action;
  switch (kind) {
    case 'delay':
      return { kind, minMs, maxMs };
    case 'status':
      return { kind, status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
    case 'profile':
      return {
        kind,
        // Validated against FaultLatency: its distribution's keys are present.
        ...(action.latency ? { latency: action.latency as FaultLatency } : {}),
        ...(action.errors ? { errors: action.errors } : {}),
        seed: action.seed ?? randomInt(0, 2 ** 32),
      };
    case 'lost-answer':
      return { kind, by: action.by ?? 'drop' };
    default:
      return { kind };
  }
}

/**
 * The tasks over the mocks' malls.
 * @param control the control document (`getControlDocument` answers it; it states the faults on deliveries)
 * @param specs the spec of every API the mocks serve: fault and journal filters may name their operations
 */
export function controlHandlers(malls: MockMalls, specs: ApiSpecs, control: SpecModel): ControlHandlers {
  const sandboxChange = async (
    change: (sandbox: NonNullable<MockMalls['sandbox']>) => MallOutcome | Promise<MallOutcome>,
  ): Promise<Reply> => (malls.sandbox ? changeReply(await change(malls.sandbox)) : exampleMode());

  const clockBody = (mallId: string) => ({
    now: new Date(malls.clocks.now(mallId)).toISOString(),
    offsetMs: malls.clocks.offset(mallId),
  });

  /** Answers a journal read, unless its filter names an operation no API has. */
  const journal = async (
    { mallId, query }: ControlCall<'listJournal' | 'countJournal' | 'getDuplicates'>,
    answer: (entries: JournalEntry[]) => Reply,
  ): Promise<Reply> => {
    const filter: JournalFilter = query;
    const unknown = operationViolation(specs, filter.api, filter.operationId, 'operationId', 'query');
    return unknown ? violationsReply([unknown]) : answer(await malls.journal.entries(mallId, filter));
  };

  return {
    getControlDocument: () => ok(control.document),
    listMalls: async () => ok({ malls: await malls.mallIds() }),
    createReset: async ({ mallId, body }) => changeReply(await malls.reset(mallId, mallStart(body.to))),
    createFixture: ({ mallId, body }) => sandboxChange((sandbox) => sandbox.loadFixture(mallId, body)),
    getSnapshot: async ({ mallId }) => {
      if (!malls.sandbox) return exampleMode();
      const snapshot = await malls.sandbox.snapshot(mallId);
      return snapshot === undefined ? errorReply(404, `No mall ${mallId} exists.`) : ok(snapshot);
    },
    updateSnapshot: ({ mallId, body }) => sandboxChange((sandbox) => sandbox.restore(mallId, body)),
    listJournal: (call) => journal(call, (entries) => ok({ entries })),
    countJournal: (call) => journal(call, (entries) => ok({ count: entries.length })),
    createCoverageReport: ({ body }) => coverageTask(malls.journal, specs, body),
    deleteJournal: async ({ mallId }) => ok({ cleared: await malls.journal.clear(mallId) }),
    getDuplicates: (call) => journal(call, (entries) => ok(duplicateCreates(entries))),
    listFaults: async ({ mallId }) => ok({ faults: await malls.faults.list(mallId) }),
    createFault: async ({ mallId, body: { match = {}, times, action } }) => {
      const refused =
        deliveryFaultViolation(control, match, action) ??
        delayViolation(action) ??
        profileViolation(action) ??
        operationViolation(specs, match.api, match.operationId, 'match.operationId');
      if (refused) return violationsReply([refused]);
      const rule = {
        match,
        action: storedAction(action),
        ...(times === undefined ? {} : { remaining: times }),
      };
      return ok(await malls.faults.add(mallId, rule), 201);
    },
    deleteFaults: async ({ mallId }) => ok({ cleared: await malls.faults.clear(mallId) }),
    deleteFault: async ({ mallId, path: { id } }) =>
      (await malls.faults.remove(mallId, id))
        ? ok({ removed: id })
        : errorReply(404, `No fault rule ${id} at mall ${mallId}.`),
    getClock: async ({ mallId }) => {
      await malls.clocks.refresh(mallId);
      return ok(clockBody(mallId));
    },
    updateClock: async ({ mallId, body: { advanceMs, at } }) => {
      await malls.clocks.refresh(mallId);
      const refused =
        advanceMs === undefined
          ? clockViolation('at', Date.parse(at ?? ''))
          : clockViolation('advanceMs', malls.clocks.now(mallId) + advanceMs);
      if (refused) return violationsReply([refused]);
      if (advanceMs !== undefined) await malls.clocks.advance(mallId, advanceMs);
      if (at !== undefined) await malls.clocks.set(mallId, Date.parse(at));
      return ok(clockBody(mallId));
    },
    deleteRateLimits: async ({ mallId }) => {
      await malls.resetLimits(mallId);
      return ok({ ok: true });
    },
    updateWebhookReceiver: async ({ mallId, body }) => {
      if (!malls.events) return noEvents();
      const receiver = { url: body.url, ...(body.key === undefined ? {} : { key: body.key }) };
      const problem = await malls.events.register(mallId, receiver);
      return problem ? violationsReply([{ location: 'body', name: 'url', message: problem }]) : ok(receiver);
    },
    createWebhookTest: async ({ mallId, body }) => {
      const events = malls.sandbox?.events;
      if (!events) return noEvents();
      if (!events.eventNumbers().includes(body.event_no))
        return violationsReply([
          {
            location: 'body',
            name: 'event_no',
            message: `must be an event the admin API describes (${events.eventNumbers().join(', ')})`,
          },
        ]);
      return (await events.sendTest(mallId, body.event_no))
        ? queued()
        : errorReply(404, `No mall ${mallId} exists.`);
    },
    createWebhookResend: async ({ mallId, path }) => {
      const events = malls.sandbox?.events;
      if (!events) return noEvents();
      return (await events.resend(mallId, path.log_id))
        ? queued()
        : errorReply(404, `Mall ${mallId} has no delivery log entry ${path.log_id}.`);
    },
    listWebhookDeliveries: async ({ mallId, query }) => {
      if (!malls.events || !malls.sandbox) return noEvents();
      // Once this process's deliveries under way are done.
      await malls.events.dispatcher.idle();
      const wanted = Object.entries(query);
      const deliveries = (await malls.sandbox.events.deliveries(mallId)).filter((entry) =>
        wanted.every(([field, value]) => value === undefined || entry[field] === value),
      );
      return ok({ deliveries });
    },
  };
}
