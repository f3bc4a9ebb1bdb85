// Stage: counts the call against the API's limit — per mall when the spec counts the limit per mall
// (`x-rate-limit` `counted-per: mall`) and the caller's token names one, per client address
// otherwise (as the trusted-proxy rule of client-address.ts finds it), each mall's buckets on that
// mall's clock — passes on the limit headers every answer carries, and answers 429 with the
// limiter's envelope and Retry-After when the limit is reached.
import type { CountedPer, ServerLimiter } from '@mall-api/rate-limit';
import { type ClientAddressOf, clientAddressOf } from '../http/client-address.js';
import type { ErrorEnvelope } from '../http/error-envelope.js';
import type { Identified, Metering } from '../pipeline/phases.js';
import { envelopeReply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';
import { requestRuleNames } from '../validation/request-rules.js';

/** Creates the stage over the limiter of each mall (clients told apart by `clientOf`, by default the socket's peer). */
export function rateLimit(
  limiterAt: (mallId: string) => ServerLimiter,
  countedPer: CountedPer,
  clientOf: ClientAddressOf = clientAddressOf(),
): Step<Identified, Metering> {
  return {
    name: 'rate-limit',
    async run(phase) {
      const { caller, mallId } = phase;
      const perMall = countedPer === 'mall' && caller.ok && caller.principal.mallId !== undefined;
      const decision = await limiterAt(mallId).take(perMall ? mallId : clientOf(phase.request));
      return decision.allowed
        ? { limitHeaders: decision.headers }
        : {
            ...envelopeReply(429, decision.body as ErrorEnvelope),
            limitHeaders: decision.headers,
            refusedBy: [requestRuleNames.rateLimit],
          };
    },
  };
}
