// Stage: works out who is calling (Basic client credentials, or a bearer token of the mock OAuth
// authority) and keeps the outcome on the exchange; a token used at another mall than the one it
// was issued for (by host or per-mall base URL) does not authenticate. It never answers: the rate
// limit needs the caller's mall first, and refusing an unauthenticated caller is
// `requireCredentials`' job.
import { type Authentication, authenticate, type CredentialSources } from '../../authentication.js';
import { andThen } from '../../malls/awaitable.js';
import type { Stage } from '../stage.js';

/** Creates the stage. */
export function identifyCaller(sources: CredentialSources): Stage {
  return {
    name: 'identify-caller',
    run(exchange) {
      return andThen(authenticate(exchange.api, exchange.request, sources), (caller: Authentication) => {
        const tokenMall = caller.ok ? caller.principal.mallId : undefined;
        exchange.caller =
          tokenMall && exchange.namedMall && tokenMall !== exchange.namedMall
            ? { ok: false, message: 'The access token was issued for another mall.' }
            : caller;
        return undefined;
      });
    },
  };
}
