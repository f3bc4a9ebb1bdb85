// Stage: the faults a test asked for at the request's mall (control API): a delay before the answer,
// a given status instead of it (with the API's envelope and, when asked, Retry-After), a dropped
// connection, or no answer at all. A counted rule is used up call by call (across replicas when the
// rules live in Redis). Before the answer's work it waits for the mark of the request's mall in use
// (the mall-in-use stage's), and adds an authenticated caller's mall that was not on the roster
// yet, so neither idle expiry nor the cap drops the mall under the request (mall-state's roster).

import type { FaultRules } from '@mall-api/mall-state';
import { errorEnvelope } from '../../error-envelope.js';
import type { Identity, MallUse, Routed } from '../phases.js';
import type { Reply } from '../reply.js';
import type { Check } from '../stage.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the stage over the malls' fault rules; `touch` adds a mall to the roster of malls in use. */
export function faults(
  rules: FaultRules,
  touch: (mallId: string) => Promise<void>,
): Check<Routed & Identity & MallUse> {
  return {
    name: 'faults',
    async run(phase): Promise<Reply | undefined> {
      const [action] = await Promise.all([
        rules.take(phase.mallId, {
          api: phase.api.name,
          operationId: phase.route.operation.operationId,
          method: phase.method,
          path: phase.path,
        }),
        phase.listed.then((listed) => (listed || !phase.caller.ok ? undefined : touch(phase.mallId))),
      ]);
      if (!action) return undefined;
      switch (action.kind) {
        case 'delay':
          await sleep(action.minMs + Math.random() * (action.maxMs - action.minMs));
          return undefined;
        case 'status':
          return {
            status: action.status,
            headers:
              action.retryAfterSeconds === undefined
                ? {}
                : { 'retry-after': String(action.retryAfterSeconds) },
            body: errorEnvelope(
              action.status,
              `Fault injected by the mock's control API (status ${action.status}).`,
            ),
          };
        case 'drop':
          return { status: 0, headers: {}, body: undefined, disposition: 'drop' };
        case 'hang':
          return { status: 0, headers: {}, body: undefined, disposition: 'hang' };
      }
    },
  };
}
