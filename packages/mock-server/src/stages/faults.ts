// Stage: the faults a test asked for at the request's mall (control API): a delay before the answer,
// a given status instead of it (with the API's envelope and, when asked, Retry-After), a dropped
// connection, no answer at all, a profile's drawn latency and error status (faults/fault-profile.ts),
// or a lost answer, which this stage only notes for the answer stage (lost-answer.ts) to act on
// once the request is answered. A counted rule is used up call by call (across replicas when the
// rules live in Redis). Delays wait on a timer (never the event loop), through the `sleep` given,
// so tests can run them without waiting. Before the answer's work it waits for the mark of the
// request's mall in use (the mall-in-use stage's), and adds an authenticated caller's mall that was
// not on the roster yet, so neither idle expiry nor the cap drops the mall under the request
// (mall-state's roster).

import { setTimeout as timer } from 'node:timers/promises';
import type { AnswerLoss, FaultRules } from '@mall-api/mall-state';
import { drawProfile } from '../faults/fault-profile.js';
import { errorEnvelope } from '../http/error-envelope.js';
import type { Identity, MallUse, Routed } from '../pipeline/phases.js';
import type { Reply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';

/** Waits `ms` milliseconds (a timer by default). */
export type Sleep = (ms: number) => Promise<unknown>;

/** What the faults stage adds: how the request's answer is to be lost, when a rule says so. */
export interface Faulted {
  readonly answerLoss?: AnswerLoss;
}

/** How the faults stage waits and the longest it may (the control spec's bound on delays). */
export interface FaultTiming {
  readonly maxDelayMs: number;
  readonly sleep?: Sleep;
}

/** The reply of an injected status. */
const statusReply = (status: number, retryAfterSeconds: number | undefined): Reply => ({
  status,
  headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  body: errorEnvelope(status, `Fault injected by the mock's control API (status ${status}).`),
});

/** Creates the stage over the malls' fault rules; `touch` adds a mall to the roster of malls in use. */
export function faults(
  rules: FaultRules,
  touch: (mallId: string) => Promise<void>,
  { maxDelayMs, sleep = timer }: FaultTiming,
): Step<Routed & Identity & MallUse, Faulted> {
  return {
    name: 'faults',
    async run(phase): Promise<Reply | Faulted | undefined> {
      const [fired] = await Promise.all([
        rules.take(phase.mallId, {
          api: phase.api.name,
          operationId: phase.route.operation.operationId,
          method: phase.method,
          path: phase.path,
        }),
        phase.listed.then((listed) => (listed || !phase.caller.ok ? undefined : touch(phase.mallId))),
      ]);
      if (!fired) return undefined;
      const { action, call } = fired;
      switch (action.kind) {
        case 'delay':
          await sleep(action.minMs + Math.random() * (action.maxMs - action.minMs));
          return undefined;
        case 'status':
          return statusReply(action.status, action.retryAfterSeconds);
        case 'profile': {
          const { delayMs, error } = drawProfile(action, call, maxDelayMs);
          if (delayMs > 0) await sleep(delayMs);
          return error && statusReply(error.status, error.retryAfterSeconds);
        }
        case 'lost-answer':
          return { answerLoss: action.by };
        case 'drop':
          return { status: 0, headers: {}, body: undefined, disposition: 'drop' };
        case 'hang':
          return { status: 0, headers: {}, body: undefined, disposition: 'hang' };
      }
    },
  };
}
