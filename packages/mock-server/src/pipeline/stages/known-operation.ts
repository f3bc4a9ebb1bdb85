// Stage: a method and path that address no operation of the API get 404 with the envelope.
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The stage. */
export const knownOperation: Stage = {
  name: 'known-operation',
  run: (exchange) =>
    exchange.route
      ? undefined
      : errorReply(404, `No API exists at ${exchange.method} ${exchange.path}. Check the endpoint URL.`),
};
