// Stage: counts the call against the API's limit — per mall for the OAuth APIs when the caller's
// token names one, per client address otherwise, each mall's buckets on that mall's clock — keeps
// the limit headers every answer carries, and answers 429 with the limiter's envelope and
// Retry-After when the limit is reached.
import type { CountedPer, ServerLimiter } from '@mall-api/rate-limit';
import { clientAddress } from '../../client-address.js';
import type { ErrorEnvelope } from '../../error-envelope.js';
import { mallOf } from '../exchange.js';
import { envelopeReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** Creates the stage over the limiter of each mall. */
export function rateLimit(limiterAt: (mallId: string) => ServerLimiter, countedPer: CountedPer): Stage {
  return {
    name: 'rate-limit',
    async run(exchange) {
      const mallId = exchange.caller?.ok ? exchange.caller.principal.mallId : undefined;
      const key = countedPer === 'mall' && mallId ? mallId : clientAddress(exchange.request);
      const decision = await limiterAt(mallOf(exchange)).take(key);
      exchange.limitHeaders = decision.headers;
      return decision.allowed ? undefined : envelopeReply(429, decision.body as ErrorEnvelope);
    },
  };
}
