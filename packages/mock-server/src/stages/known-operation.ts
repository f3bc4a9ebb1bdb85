// Stage: a method and path that address no operation of the API get 404 with the envelope; any
// other request passes on routed (its route no longer optional).
import type { Arrival, Routing } from '../pipeline/phases.js';
import { errorReply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';

/** The stage. */
export const knownOperation: Step<Arrival, Routing> = {
  name: 'known-operation',
  run: (phase) =>
    phase.route
      ? { route: phase.route }
      : errorReply(404, `No API exists at ${phase.method} ${phase.path}. Check the endpoint URL.`),
};
