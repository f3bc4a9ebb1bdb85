// Stage: marks an authenticated caller's mall in use as soon as the mall is known, if it is on the
// roster already, before the rate limit decides (on Redis both leave in one write) and before the
// answer's work, so neither idle expiry nor the cap drops the mall under the request. The mark is
// not awaited here: the faults stage awaits it (a read's only before its answer) and adds a mall not
// on the roster once the request has passed every check, so a refused request creates no mall.
import { type Identified, type MallUse, onlyReads } from '../pipeline/phases.js';
import type { Step } from '../pipeline/stage.js';

/** What an unauthenticated caller's request marks: nothing. */
const unmarked: Promise<boolean> = Promise.resolve(false);

/** Creates the stage; `renew` marks a mall in use if it is on the roster (mall-state's `renew`). */
export function mallInUse(
  renew: (mallId: string, use: 'read' | 'write') => Promise<boolean>,
): Step<Identified, MallUse> {
  return {
    name: 'mall-in-use',
    run({ caller, mallId, method }) {
      if (!caller.ok) return { listed: unmarked };
      const listed = renew(mallId, onlyReads(method) ? 'read' : 'write');
      // A request answered before the faults stage never awaits it; its failure is the store's
      // outage (logged by the store) or a drop's, which the next mark meets again.
      listed.catch(() => {});
      return { listed };
    },
  };
}
