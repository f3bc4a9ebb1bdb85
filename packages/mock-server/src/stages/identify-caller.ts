// Stage: works out who is calling (Basic client credentials, or a bearer token of the mock OAuth
// authority) and decides, once, which mall the request is for: the one the host or per-mall base
// URL names, else the token's, else the demo mall. A token used at another mall than the one it was
// issued for does not authenticate. It never answers: the rate limit needs the mall first, and
// refusing an unauthenticated caller is `requireCredentials`' job.

import { defaultMallId } from '../http/mall-address.js';
import { type Authentication, authenticate, type CredentialSources } from '../identity/authentication.js';
import type { Arrival, Identity } from '../pipeline/phases.js';
import type { Step } from '../pipeline/stage.js';

/** The caller as the request's mall admits it, and that mall. */
function identity({ namedMall }: Arrival, caller: Authentication): Identity {
  const tokenMall = caller.ok ? caller.principal.mallId : undefined;
  if (tokenMall && namedMall && tokenMall !== namedMall)
    return {
      caller: { ok: false, message: 'The access token was issued for another mall.' },
      mallId: namedMall,
    };
  return { caller, mallId: namedMall ?? tokenMall ?? defaultMallId };
}

/** Creates the stage. */
export function identifyCaller(sources: CredentialSources): Step<Arrival, Identity> {
  return {
    name: 'identify-caller',
    run(phase) {
      const caller = authenticate(phase.api, phase.request, sources);
      return caller instanceof Promise
        ? caller.then((known) => identity(phase, known))
        : identity(phase, caller);
    },
  };
}
