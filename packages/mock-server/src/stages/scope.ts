// Stage: the caller's credential must grant the operation's `x-required-scope` (under the aliases
// the API's spec declares); otherwise the API's status for a missing scope (collection 401, admin
// and analytics 403) with the scope named.

import type { ScopeAliases } from '../oauth/scope-names.js';
import { grantsScope } from '../oauth/scope-names.js';
import type { Authorization, Routed } from '../pipeline/phases.js';
import { errorReply } from '../pipeline/reply.js';
import type { Check } from '../pipeline/stage.js';
import { requestRuleNames } from '../validation/request-rules.js';

/** Creates the stage with the scope aliases of the API's spec. */
export function scope(aliases: ScopeAliases): Check<Routed & Authorization> {
  return {
    name: 'scope',
    run({ route, principal, api }) {
      const required = route.operation.requiredScope;
      if (!required || required === 'none' || grantsScope(principal.scopes, required, aliases))
        return undefined;
      const status = api.missingScopeStatus;
      return {
        ...errorReply(
          status,
          `The ${status === 401 ? 'client' : 'access token'} has no permission for this operation.`,
          { required_scope: required },
        ),
        refusedBy: [requestRuleNames.scope],
      };
    },
  };
}
