// The control API of the mocks, for tests: under `/__mock/` on every mock port, loopback callers
// only unless allowed otherwise, and with a control token when one is set. It resets a mall (to its
// seed, empty, or a named fixture), loads a fixture, snapshots and restores a mall, reads, counts
// and clears the mall's request journal, adds and clears fault rules, moves the mall's clock and
// empties its rate-limit buckets. Every call validates its input first: bad input is a 400 or 422
// with the API's envelope and changes nothing.
//   GET    /__mock/malls                          the malls in use
//   POST   /__mock/malls/{mall}/reset             {"to": "seed" | "empty" | {"seed": n} | {"fixture": name}}
//   POST   /__mock/malls/{mall}/fixtures          a fixture (categories, products, bundles, placements)
//   GET|PUT /__mock/malls/{mall}/snapshot         take / restore a snapshot
//   GET    /__mock/malls/{mall}/journal[/count]   ?api&method&path&operationId&status&after&violated
//   DELETE /__mock/malls/{mall}/journal
//   GET|POST|DELETE /__mock/malls/{mall}/faults   list / add / clear; DELETE …/faults/{id} removes one
//   GET|POST /__mock/malls/{mall}/clock           read / {"advanceMs": n} or {"at": "2026-01-01T00:00:00Z"}
//   DELETE /__mock/malls/{mall}/rate-limits
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Violation } from '../error-envelope.js';
import type { FaultAction } from '../malls/fault-rules.js';
import type { JournalFilter } from '../malls/journal.js';
import type { MockMalls } from '../malls/mock-malls.js';
import { errorReply, type Reply, violationsReply } from '../pipeline/reply.js';
import { readJsonBody } from '../request-body.js';
import type { MallChange, MallStart, SandboxMallsGateway } from '../sandbox-gateway.js';
import { type ControlSchema, controlViolations } from './control-schemas.js';

/** The prefix of every control path. */
export const controlPrefix = '/__mock/';

/** Who may call the control API. */
export interface ControlAccess {
  /** When set, every control call must send it in `X-Mock-Control-Token`. */
  readonly token?: string;
  /** Accept callers that are not on the loopback interface (off by default). */
  readonly allowRemote?: boolean;
}

const loopback = /^(127\.|::1$|::ffff:127\.)/;
const mallLabel = /^[a-z0-9][a-z0-9-]{0,62}$/;
const digest = (value: string) => createHash('sha256').update(value).digest();
const ok = (body: unknown, status = 200): Reply => ({ status, headers: {}, body });

interface ControlRequest {
  readonly method: string;
  readonly mallId: string;
  readonly rest: string;
  readonly query: URLSearchParams;
  readonly body: () => Promise<{ ok: true; value: unknown } | { ok: false; reply: Reply }>;
}

function changeReply(change: MallChange): Reply {
  return change.ok
    ? ok({ ok: true, ...(change.counts ? { counts: change.counts } : {}) })
    : violationsReply(
        change.violations.length > 0
          ? change.violations
          : [{ location: 'body', name: 'body', message: change.message }],
      );
}

const toStart = (to: unknown): MallStart | undefined =>
  to === undefined || to === 'seed' ? undefined : to === 'empty' ? 'empty' : (to as MallStart);

function journalFilter(query: URLSearchParams): { filter: JournalFilter } | { violations: Violation[] } {
  const raw: Record<string, unknown> = Object.fromEntries(query);
  for (const key of ['status', 'after'])
    if (typeof raw[key] === 'string' && /^\d+$/.test(raw[key] as string)) raw[key] = Number(raw[key]);
  if (raw.violated === 'true' || raw.violated === 'false') raw.violated = raw.violated === 'true';
  const violations = controlViolations('journalFilter', raw, 'query');
  return violations.length > 0 ? { violations } : { filter: raw as JournalFilter };
}

/** Creates the handler of control requests. */
export function createControlApi(malls: MockMalls, access: ControlAccess = {}) {
  const expected = access.token === undefined ? undefined : digest(access.token);

  const validated = async (
    request: ControlRequest,
    schema: ControlSchema,
  ): Promise<{ value: unknown } | { reply: Reply }> => {
    const body = await request.body();
    if (!body.ok) return { reply: body.reply };
    const violations = controlViolations(schema, body.value);
    return violations.length > 0 ? { reply: violationsReply(violations) } : { value: body.value };
  };

  const needsSandbox = (): Reply | undefined =>
    malls.sandbox
      ? undefined
      : errorReply(409, 'The mocks run in example mode (--examples): there is no mall data to change.');

  /** Reads the body and hands it to a change of the mall's data (refused in example mode). */
  const changeData = async (
    request: ControlRequest,
    change: (sandbox: SandboxMallsGateway, value: unknown) => MallChange,
  ): Promise<Reply> => {
    const sandbox = malls.sandbox;
    if (!sandbox) return needsSandbox() as Reply;
    const body = await request.body();
    return body.ok ? changeReply(change(sandbox, body.value)) : body.reply;
  };

  const routes: Record<string, (request: ControlRequest) => Promise<Reply> | Reply> = {
    'POST reset': async (request) => {
      const input = await validated(request, 'reset');
      if ('reply' in input) return input.reply;
      return changeReply(malls.reset(request.mallId, toStart((input.value as { to?: unknown }).to)));
    },
    'POST fixtures': (request) =>
      changeData(request, (sandbox, value) => sandbox.loadFixture(request.mallId, value)),
    'GET snapshot': (request) => needsSandbox() ?? ok(malls.sandbox?.snapshot(request.mallId)),
    'PUT snapshot': (request) =>
      changeData(request, (sandbox, value) => sandbox.restore(request.mallId, value)),
    'GET journal': (request) => {
      const parsed = journalFilter(request.query);
      return 'violations' in parsed
        ? violationsReply(parsed.violations)
        : ok({ entries: malls.journal.entries(request.mallId, parsed.filter) });
    },
    'GET journal/count': (request) => {
      const parsed = journalFilter(request.query);
      return 'violations' in parsed
        ? violationsReply(parsed.violations)
        : ok({ count: malls.journal.entries(request.mallId, parsed.filter).length });
    },
    'DELETE journal': (request) => ok({ cleared: malls.journal.clear(request.mallId) }),
    'GET faults': (request) => ok({ faults: malls.faults.list(request.mallId) }),
    'POST faults': async (request) => {
      const input = await validated(request, 'fault');
      if ('reply' in input) return input.reply;
      const {
        match = {},
        times,
        action,
      } = input.value as { match?: object; times?: number; action: FaultAction & { maxMs?: number } };
      const stored =
        action.kind === 'delay'
          ? {
              kind: 'delay' as const,
              minMs: action.minMs,
              maxMs: Math.max(action.minMs, action.maxMs ?? action.minMs),
            }
          : action;
      return ok(
        malls.faults.add(request.mallId, {
          match,
          action: stored,
          ...(times === undefined ? {} : { remaining: times }),
        }),
        201,
      );
    },
    'DELETE faults': (request) => ok({ cleared: malls.faults.clear(request.mallId) }),
    'GET clock': (request) => ok(clockBody(request.mallId)),
    'POST clock': async (request) => {
      const input = await validated(request, 'clock');
      if ('reply' in input) return input.reply;
      const { advanceMs, at } = input.value as { advanceMs?: number; at?: string };
      if (advanceMs !== undefined) malls.clocks.advance(request.mallId, advanceMs);
      if (at !== undefined) malls.clocks.set(request.mallId, Date.parse(at));
      return ok(clockBody(request.mallId));
    },
    'DELETE rate-limits': (request) => {
      malls.resetLimits(request.mallId);
      return ok({ ok: true });
    },
  };

  const clockBody = (mallId: string) => ({
    now: new Date(malls.clocks.now(mallId)).toISOString(),
    offsetMs: malls.clocks.offset(mallId),
  });

  /** Answers a control request (its path starts with {@link controlPrefix}). */
  return async function handleControl(request: IncomingMessage, url: URL): Promise<Reply> {
    if (!access.allowRemote && !loopback.test(request.socket.remoteAddress ?? '')) {
      return errorReply(403, 'The control API answers loopback callers only.');
    }
    if (expected) {
      const presented = request.headers['x-mock-control-token'];
      if (typeof presented !== 'string' || !timingSafeEqual(digest(presented), expected)) {
        return errorReply(401, 'The control API needs the control token in X-Mock-Control-Token.');
      }
    }
    const method = (request.method ?? 'GET').toUpperCase();
    const segments = url.pathname.slice(controlPrefix.length).split('/').filter(Boolean);
    if (segments[0] !== 'malls') return errorReply(404, `No control operation at ${method} ${url.pathname}.`);
    if (segments.length === 1 && method === 'GET') return ok({ malls: malls.mallIds() });
    const mallId = segments[1] ?? '';
    if (!mallLabel.test(mallId)) {
      return violationsReply([
        {
          location: 'path',
          name: 'mall',
          message: 'must be a mall id (lower-case letters, digits and hyphens)',
        },
      ]);
    }
    const rest = segments.slice(2);
    if (method === 'DELETE' && rest[0] === 'faults' && rest.length === 2) {
      const id = Number(rest[1]);
      if (!Number.isInteger(id))
        return violationsReply([{ location: 'path', name: 'id', message: 'must be a fault rule id' }]);
      return malls.faults.remove(mallId, id)
        ? ok({ removed: id })
        : errorReply(404, `No fault rule ${id} at mall ${mallId}.`);
    }
    const route = routes[`${method} ${rest.join('/')}`];
    if (!route) return errorReply(404, `No control operation at ${method} ${url.pathname}.`);
    let read: Promise<{ ok: true; value: unknown } | { ok: false; reply: Reply }> | undefined;
    return route({
      method,
      mallId,
      rest: rest.join('/'),
      query: url.searchParams,
      body: () => {
        read ??= readJsonBody(request, ['application/json'], 64 * 1024 * 1024).then((parsed) =>
          parsed.ok
            ? { ok: true as const, value: parsed.value }
            : { ok: false as const, reply: errorReply(400, parsed.message) },
        );
        return read;
      },
    });
  };
}
