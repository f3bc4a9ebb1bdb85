// One request through a mock API's built stage list: the reply sent, the request journalled for its
// mall (500 and 503 included; the health, metrics and control branches answer outside the API and
// are not), counted in the metrics and logged. A stage that throws is answered here: a store that
// cannot answer is a 503 with the envelope, anything else a bare 500 envelope with its cause logged.
// Building the stage list is mock-api.ts's job, not this module's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreUnavailableError, storeUnavailableMessage } from '@mall-api/mall-state';
import type { SpecModel } from '@mall-api/spec-model';
import { RequestAbortedError } from '../http/request-body.js';
import type { ApiProfile } from '../identity/api-profiles.js';
import type { MockMalls } from '../malls/mock-malls.js';
import type { MockMetrics } from '../metrics/mock-metrics.js';
import { type Arrival, mallReached, parseArrival, type Reached } from '../pipeline/phases.js';
import { errorReply, type Reply, sendReply } from '../pipeline/reply.js';
import { type Pipeline, StageFailure } from '../pipeline/stage.js';
import { abortedLine, errorLine, type LogFormat, requestLine } from '../process/log-lines.js';

/** What answering a request of one mock API needs, built once by `createMockApi`. */
export interface RequestHandling {
  readonly profile: ApiProfile;
  readonly spec: SpecModel;
  readonly stages: Pipeline<Arrival, never>;
  readonly malls: MockMalls;
  readonly metrics: MockMetrics;
  /** The stages of the branches that answer outside the API (not journalled, not counted). */
  readonly outsideApi: ReadonlySet<string>;
  /** The stages whose requests are not logged (a balancer's health probes would drown the log). */
  readonly unlogged: ReadonlySet<string>;
  readonly cors: Readonly<Record<string, string>>;
  readonly log: ((line: string) => void) | undefined;
  readonly logError: (line: string) => void;
  readonly format: LogFormat;
}

/** The stages a request has passed the faults stage by when it is answered there. */
const markedBefore = new Set(['faults', 'answer']);

/** Writes the request's entry to its mall's journal, unless a branch outside the API answered it. */
function journal(
  state: RequestHandling,
  reached: Reached,
  status: number,
  answeredBy: string,
  started: number,
  reply?: Pick<Reply, 'refusedBy' | 'lostAnswer'>,
) {
  if (state.outsideApi.has(answeredBy)) return undefined;
  const mallId = mallReached(reached);
  return state.malls.journal.record(mallId, {
    receivedAtMs: state.malls.clocks.now(mallId),
    api: state.profile.name,
    method: reached.method,
    path: reached.path,
    operationId: reached.route?.operation.operationId ?? null,
    query: reached.query,
    body: reached.body ?? null,
    status: reply?.lostAnswer?.status ?? status,
    answeredBy,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    ...(reply?.refusedBy === undefined ? {} : { refusedBy: reply.refusedBy }),
    ...(reply?.lostAnswer ? { lostAnswer: reply.lostAnswer.by } : {}),
  });
}

/** What became of one request, for its metrics and log line. */
interface Answered {
  status: number;
  answeredBy: string;
  operationId: string | null;
  aborted: boolean;
}

/** Answers one request of the API: runs the stages, journals, counts and logs it. */
export async function handleRequest(
  state: RequestHandling,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const answered: Answered = { status: 500, answeredBy: '', operationId: null, aborted: false };
  try {
    const { reply, stage, reached } = await state.stages.run(
      parseArrival(state.profile, state.spec, request),
    );
    answered.answeredBy = stage;
    answered.operationId = reached.route?.operation.operationId ?? null;
    const limitHeaders = reply.limitHeaders ?? reached.limitHeaders ?? {};
    answered.status = reply.status;
    // Only an authenticated request that was answered (or reached the answer) puts its mall in
    // use: a refused one (401, 403, 429, 422 before the answer) creates none (mall-roster.ts).
    // The faults stage marked it before the answer's work; one answered before that stage (an
    // OAuth endpoint) is marked here, with its journal entry (on Redis both leave in one write);
    // so is a read's mark, which the faults stage left under way (`marked`).
    const inUse = reached.caller?.ok && reply.status < 400 && !markedBefore.has(stage);
    await Promise.all([
      journal(state, reached, reply.status, stage, started, reply),
      inUse && state.malls.touch(mallReached(reached)),
      reached.marked,
    ]);
    // Browsers send Origin on cross-origin requests; other clients need no CORS headers.
    const api = request.headers.origin && !state.outsideApi.has(stage);
    sendReply(response, reply, api ? { ...state.cors, ...limitHeaders } : limitHeaders);
  } catch (thrown) {
    await answerFailure(state, thrown, answered, request, response, started);
  } finally {
    const logged = { api: state.profile.name, method: request.method, url: request.url };
    const ms = performance.now() - started;
    if (!answered.aborted && !state.outsideApi.has(answered.answeredBy))
      state.metrics.observe(state.profile.name, answered.operationId, answered.status, ms / 1000);
    if (!state.unlogged.has(answered.answeredBy))
      state.log?.(
        answered.aborted
          ? abortedLine(state.format, logged, ms)
          : requestLine(state.format, logged, answered.status, ms),
      );
  }
}

/** Answers a request whose stages threw: 503 for a store outage, 500 otherwise, journalled. */
async function answerFailure(
  state: RequestHandling,
  thrown: unknown,
  answered: Answered,
  request: IncomingMessage,
  response: ServerResponse,
  started: number,
): Promise<void> {
  // A stage that threw is reported with the phase it had reached (its limit headers still apply).
  const failure = thrown instanceof StageFailure ? thrown : undefined;
  const error = failure ? failure.cause : thrown;
  const limitHeaders = failure?.reached.limitHeaders ?? {};
  // A client that left mid-body gets nothing and is logged as aborted, not as a 500.
  answered.aborted = error instanceof RequestAbortedError;
  if (answered.aborted) return void response.destroy();
  const unavailable = error instanceof StoreUnavailableError;
  answered.status = unavailable ? 503 : 500;
  if (failure) answered.operationId = failure.reached.route?.operation.operationId ?? null;
  if (unavailable) state.metrics.storeUnavailable(state.profile.name);
  // The cause goes to the log (never a header or body of the request); the client gets the
  // envelope. A store outage is logged once by its connection, not once per request.
  const logCause = (cause: unknown) =>
    state.logError(
      errorLine(state.format, { api: state.profile.name, method: request.method, url: request.url }, cause),
    );
  if (!unavailable) logCause(error);
  const kind = error instanceof Error ? error.name : 'Error';
  const reply = unavailable
    ? errorReply(503, storeUnavailableMessage)
    : errorReply(500, `An internal error occurred (${kind}).`);
  if (failure)
    await Promise.resolve()
      .then(() => journal(state, failure.reached, answered.status, failure.stage, started))
      .catch((journalFailure: unknown) => {
        // The store of the journal may be the one that is down: that outage is logged already.
        if (!(journalFailure instanceof StoreUnavailableError)) logCause(journalFailure);
      });
  if (!response.headersSent) sendReply(response, reply, limitHeaders);
  else response.destroy();
}
