// Stage: works out who is calling (Basic client credentials, or a bearer token of the mock OAuth
// authority) and keeps the outcome on the exchange. It never answers: the rate limit needs the
// caller's mall first, and refusing an unauthenticated caller is `requireCredentials`' job.
import { authenticate, type CredentialSources } from '../../authentication.js';
import type { Stage } from '../stage.js';

/** Creates the stage. */
export function identifyCaller(sources: CredentialSources): Stage {
  return {
    name: 'identify-caller',
    run(exchange) {
      exchange.caller = authenticate(exchange.api, exchange.request, sources);
      return undefined;
    },
  };
}
