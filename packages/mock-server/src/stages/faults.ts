// Stage: the faults a test asked for at the request's mall (control API): a delay, an injected
// status with the API's envelope, a dropped or hung connection, a profile's drawn latency and error
// (faults/fault-profile.ts), or a lost answer, which this stage only notes for lost-answer.ts. Delays
// wait through the `sleep` given, so tests need not wait. A write waits here for its mall's mark in
// use, adding a mall not on the roster yet, before the answer's work, so no drop takes the mall under
// it; a read loses nothing to a drop and waits only before its answer (`marked`, which on Redis leaves
// in the same write as its journal entry).

import { setTimeout as timer } from 'node:timers/promises';
import type { AnswerLoss, FaultRules } from '@mall-api/mall-state';
import { drawProfile } from '../faults/fault-profile.js';
import { errorEnvelope } from '../http/error-envelope.js';
import { type Identity, type MallUse, onlyReads, type PendingMark, type Routed } from '../pipeline/phases.js';
import type { Reply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';

/** Waits `ms` milliseconds (a timer by default). */
export type Sleep = (ms: number) => Promise<unknown>;

/**
 * What the faults stage adds: how the request's answer is to be lost, when a rule says so, and a
 * read's mark of its mall in use, still under way.
 */
export interface Faulted extends PendingMark {
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
      const marking = phase.listed.then((listed) =>
        listed || !phase.caller.ok ? undefined : touch(phase.mallId),
      );
      // A read's failed mark fails its answer (the mock awaits `marked`), not the process.
      const marked = onlyReads(phase.method) ? marking : undefined;
      marked?.catch(() => {});
      const [fired] = await Promise.all([
        rules.take(phase.mallId, {
          api: phase.api.name,
          operationId: phase.route.operation.operationId,
          method: phase.method,
          path: phase.path,
        }),
        marked ? undefined : marking,
      ]);
      const pending = marked && { marked };
      // A reply of this stage is an answer: a read's mark is awaited before it, as before any answer.
      const answer = async (reply: Reply) => {
        await marked;
        return reply;
      };
      if (!fired) return pending;
      const { action, call } = fired;
      switch (action.kind) {
        case 'delay':
          await sleep(action.minMs + Math.random() * (action.maxMs - action.minMs));
          return pending;
        case 'status':
          return answer(statusReply(action.status, action.retryAfterSeconds));
        case 'profile': {
          const { delayMs, error } = drawProfile(action, call, maxDelayMs);
          if (delayMs > 0) await sleep(delayMs);
          return error ? answer(statusReply(error.status, error.retryAfterSeconds)) : pending;
        }
        case 'lost-answer':
          return { answerLoss: action.by, ...pending };
        case 'drop':
          return answer({ status: 0, headers: {}, body: undefined, disposition: 'drop' });
        case 'hang':
          return answer({ status: 0, headers: {}, body: undefined, disposition: 'hang' });
        case 'duplicate': // a fault on deliveries: never matches a request
          return pending;
      }
    },
  };
}
