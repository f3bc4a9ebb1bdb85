// Stage (APIs the spec marks HTTPS-only): a request that says it came over plain HTTP
// (`X-Forwarded-Proto: http`, as a TLS-terminating proxy in front of the mock reports it) is
// refused with 403.
import { headerValue } from '../exchange.js';
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The stage. */
export const httpsOnly: Stage = {
  name: 'https-only',
  run: (exchange) =>
    /^http$/i.test(headerValue(exchange.request.headers['x-forwarded-proto']) ?? '')
      ? errorReply(403, 'Only HTTPS requests are accepted.')
      : undefined,
};
