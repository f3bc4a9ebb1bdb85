// The control API of the mocks, for tests: under `/__mock/` on every mock port, described by its
// own OpenAPI document (specs/control, served at `/__mock/openapi.json`). Every request passes the
// control guard (control-guard.ts: loopback callers, allowed Host and Origin, the control token,
// JSON only), is routed and validated against the document by the same machinery as the APIs
// (`@mall-api/spec-model` and the request validator; unknown query parameters refused too), its
// body read within the control body limit, and checked against the rules beyond shape
// (control-rules.ts: a fault or journal filter names an operation of the specs the composition
// root gives, the ones the mocks serve) before anything changes: bad input is a 400, 413 or 422 with the API's
// envelope and changes nothing. The operations: reset a mall (to its seed, empty, or a named
// fixture), load a fixture, snapshot and restore, read, count and clear the request journal, add
// and clear fault rules, move the mall's clock and empty its rate-limit buckets.
// A sandbox store that cannot be reached (PostgreSQL down) answers 503 and changes nothing.
import type { IncomingMessage } from 'node:http';
import {
  type FaultAction,
  type FaultMatch,
  type JournalFilter,
  StoreUnavailableError,
} from '@mall-api/mall-state';
import type { MallOutcome, MallStart } from '@mall-api/sandbox/protocol';
import { type ApiSpecs, loadSpec, type OperationEntry } from '@mall-api/spec-model';
import type { Violation } from '../error-envelope.js';
import type { MallReset, MockMalls } from '../malls/mock-malls.js';
import { queryRecord } from '../pipeline/phases.js';
import { bodyFailureReply, errorReply, type Reply, violationsReply } from '../pipeline/reply.js';
import { readJsonBody } from '../request-body.js';
import { requestValidatorCompiler } from '../request-validator.js';
import { refusalReply } from '../sandbox-outcome.js';
import { type ControlAccess, controlGuard, defaultControlBodyLimit } from './control-guard.js';
import { clockViolation, delayViolation, operationViolation } from './control-rules.js';

/** The prefix of every control path. */
export const controlPrefix = '/__mock/';

const ok = (body: unknown, status = 200): Reply => ({ status, headers: {}, body });

/** A control request after routing and validation: its mall, converted parameters and body. */
interface ControlCall {
  readonly mallId: string;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** The reply to a change to a mall's data: what the mall now holds, or the refusal's envelope. */
const changeReply = (change: MallReset): Reply =>
  change.ok ? ok({ ok: true, ...(change.counts ? { counts: change.counts } : {}) }) : refusalReply(change);

const toStart = (to: unknown): MallStart | undefined =>
  to === undefined || to === 'seed' ? undefined : to === 'empty' ? 'empty' : (to as MallStart);

/** Query parameters the operation does not declare, each one violation. */
const unknownQuery = (operation: OperationEntry, query: URLSearchParams): Violation[] => {
  const known = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  return [...new Set(query.keys())]
    .filter((key) => !known.has(key))
    .map((name) => ({ location: 'query', name, message: 'is not a known parameter' }));
};

/**
 * Creates the handler of control requests.
 * @param specs the spec of every API the mocks serve: fault and journal filters may name their operations
 * @param publicHosts the server's public host names, which the control guard admits as `Host`
 */
export async function createControlApi(
  malls: MockMalls,
  specs: ApiSpecs,
  access: ControlAccess = {},
  publicHosts: readonly string[] = [],
) {
  const spec = await loadSpec('control');
  const compile = requestValidatorCompiler(spec);
  const validators = new Map(spec.operations.map((operation) => [operation.operationId, compile(operation)]));
  const guard = controlGuard(access, publicHosts);
  const bodyLimit = access.maxBodyBytes ?? defaultControlBodyLimit;

  const sandboxChange = async (
    change: (sandbox: NonNullable<MockMalls['sandbox']>) => MallOutcome | Promise<MallOutcome>,
  ): Promise<Reply> =>
    malls.sandbox
      ? changeReply(await change(malls.sandbox))
      : errorReply(409, 'The mocks run in example mode (--examples): there is no mall data to change.');

  const clockBody = (mallId: string) => ({
    now: new Date(malls.clocks.now(mallId)).toISOString(),
    offsetMs: malls.clocks.offset(mallId),
  });

  const journal = async (
    call: ControlCall,
    answer: (filter: JournalFilter) => Promise<Reply>,
  ): Promise<Reply> => {
    const filter = call.query as JournalFilter;
    const unknown = operationViolation(specs, filter.api, filter.operationId, 'operationId', 'query');
    return unknown ? violationsReply([unknown]) : answer(filter);
  };

  /** The operations, by operationId. */
  const operations: Record<string, (call: ControlCall) => Promise<Reply> | Reply> = {
    getControlDocument: () => ok(spec.document),
    listMalls: async () => ok({ malls: await malls.mallIds() }),
    createReset: async (call) =>
      changeReply(await malls.reset(call.mallId, toStart((call.body as { to?: unknown }).to))),
    createFixture: (call) => sandboxChange((sandbox) => sandbox.loadFixture(call.mallId, call.body)),
    getSnapshot: async (call) => {
      if (!malls.sandbox)
        return errorReply(
          409,
          'The mocks run in example mode (--examples): there is no mall data to change.',
        );
      const snapshot = await malls.sandbox.snapshot(call.mallId);
      return snapshot === undefined ? errorReply(404, `No mall ${call.mallId} exists.`) : ok(snapshot);
    },
    updateSnapshot: (call) => sandboxChange((sandbox) => sandbox.restore(call.mallId, call.body)),
    listJournal: (call) =>
      journal(call, async (filter) => ok({ entries: await malls.journal.entries(call.mallId, filter) })),
    countJournal: (call) =>
      journal(call, async (filter) =>
        ok({ count: (await malls.journal.entries(call.mallId, filter)).length }),
      ),
    deleteJournal: async (call) => ok({ cleared: await malls.journal.clear(call.mallId) }),
    listFaults: async (call) => ok({ faults: await malls.faults.list(call.mallId) }),
    createFault: async (call) => {
      const {
        match = {},
        times,
        action,
      } = call.body as { match?: FaultMatch; times?: number; action: FaultAction & { maxMs?: number } };
      const refused =
        delayViolation(action) ??
        operationViolation(specs, match.api, match.operationId, 'match.operationId');
      if (refused) return violationsReply([refused]);
      const stored =
        action.kind === 'delay'
          ? { kind: 'delay' as const, minMs: action.minMs, maxMs: action.maxMs ?? action.minMs }
          : action;
      const rule = { match, action: stored, ...(times === undefined ? {} : { remaining: times }) };
      return ok(await malls.faults.add(call.mallId, rule), 201);
    },
    deleteFaults: async (call) => ok({ cleared: await malls.faults.clear(call.mallId) }),
    deleteFault: async (call) => {
      const id = call.path.id as number;
      return (await malls.faults.remove(call.mallId, id))
        ? ok({ removed: id })
        : errorReply(404, `No fault rule ${id} at mall ${call.mallId}.`);
    },
    getClock: async (call) => {
      await malls.clocks.refresh(call.mallId);
      return ok(clockBody(call.mallId));
    },
    updateClock: async (call) => {
      const { advanceMs, at } = call.body as { advanceMs?: number; at?: string };
      await malls.clocks.refresh(call.mallId);
      const refused =
        advanceMs === undefined
          ? clockViolation('at', Date.parse(at ?? ''))
          : clockViolation('advanceMs', malls.clocks.now(call.mallId) + advanceMs);
      if (refused) return violationsReply([refused]);
      if (advanceMs !== undefined) await malls.clocks.advance(call.mallId, advanceMs);
      if (at !== undefined) await malls.clocks.set(call.mallId, Date.parse(at));
      return ok(clockBody(call.mallId));
    },
    deleteRateLimits: async (call) => {
      await malls.resetLimits(call.mallId);
      return ok({ ok: true });
    },
  };

  /** Answers a control request (its path starts with {@link controlPrefix}). */
  return async function handleControl(request: IncomingMessage, url: URL): Promise<Reply> {
    const refused = guard(request);
    if (refused) return refused;
    const method = (request.method ?? 'GET').toUpperCase();
    const route = spec.route(method, url.pathname);
    const handler = route && operations[route.operation.operationId];
    const validate = route && validators.get(route.operation.operationId);
    if (!route || !handler || !validate)
      return errorReply(404, `No control operation at ${method} ${url.pathname}.`);
    let body: unknown;
    if (route.operation.bodyMediaTypes.length > 0) {
      const parsed = await readJsonBody(request, ['application/json'], bodyLimit);
      if (!parsed.ok) return bodyFailureReply(parsed);
      body = parsed.value;
    }
    const checked = validate({
      pathParameters: route.pathParameters,
      query: queryRecord(url.searchParams),
      headers: request.headers,
      body,
    });
    const violations = [...checked.violations, ...unknownQuery(route.operation, url.searchParams)];
    if (violations.length > 0) return violationsReply(violations);
    try {
      return await handler({
        mallId: String(checked.parameters.path.mall ?? ''),
        path: checked.parameters.path,
        query: checked.parameters.query,
        body,
      });
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      return errorReply(503, 'The sandbox store is unavailable; nothing was changed. Try again shortly.');
    }
  };
}
