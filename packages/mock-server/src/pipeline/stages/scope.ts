// Stage: the caller's credential must grant the operation's `x-required-scope`; otherwise the
// API's status for a missing scope (collection 401, admin and analytics 403) with the scope named.
import { grantsScope } from '../../oauth/scope-names.js';
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The stage. */
export const scope: Stage = {
  name: 'scope',
  run(exchange) {
    const required = exchange.route?.operation.requiredScope;
    const principal = exchange.caller?.ok ? exchange.caller.principal : undefined;
    if (!required || required === 'none' || (principal && grantsScope(principal.scopes, required)))
      return undefined;
    const status = exchange.api.missingScopeStatus;
    return errorReply(
      status,
      `The ${status === 401 ? 'client' : 'access token'} has no permission for this operation.`,
      { required_scope: required },
    );
  },
};
