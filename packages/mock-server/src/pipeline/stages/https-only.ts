// Stage (APIs the spec marks HTTPS-only): a request that says it came over plain HTTP
// (`X-Forwarded-Proto: http`, as a TLS-terminating proxy in front of the mock reports it) is
// refused with 403.
import { type Arrival, headerValue } from '../phases.js';
import { errorReply } from '../reply.js';
import type { Check } from '../stage.js';

/** The stage. */
export const httpsOnly: Check<Arrival> = {
  name: 'https-only',
  run: (phase) =>
    /^http$/i.test(headerValue(phase.request.headers['x-forwarded-proto']) ?? '')
      ? errorReply(403, 'Only HTTPS requests are accepted.')
      : undefined,
};
