// Stage: a caller whose credentials were missing or wrong gets 401 with the reason
// (`identifyCaller` worked it out; the message never repeats what was sent).
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The stage. */
export const requireCredentials: Stage = {
  name: 'require-credentials',
  run: (exchange) =>
    exchange.caller === undefined
      ? errorReply(401, 'Authentication is required.')
      : exchange.caller.ok
        ? undefined
        : errorReply(401, exchange.caller.message),
};
