// Stage (APIs the spec marks HTTPS-only): a request that says it came over plain HTTP
// (`X-Forwarded-Proto: http`, as a TLS-terminating proxy in front of the mock reports it) is
// refused with the status the spec's `x-https-only` states (403 in the platform's specs).
import { type Arrival, headerValue } from '../pipeline/phases.js';
import { errorReply } from '../pipeline/reply.js';
import type { Check } from '../pipeline/stage.js';

/** The stage, refusing plain HTTP with `status`. */
export const httpsOnly = (status: number): Check<Arrival> => ({
  name: 'https-only',
  run: (phase) =>
    /^http$/i.test(headerValue(phase.request.headers['x-forwarded-proto']) ?? '')
      ? errorReply(status, 'Only HTTPS requests are accepted.')
      : undefined,
});
