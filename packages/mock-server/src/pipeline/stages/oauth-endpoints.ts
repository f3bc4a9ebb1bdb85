// Stage (admin API): the mock OAuth authorization server's endpoints. A request for a documented
// response (`Prefer: code=…` / `__code`) passes on, as the OAuth client, to be answered from the
// spec like any operation; every other OAuth request is answered by the authority itself for the
// mall the host names.
import type { Principal } from '../../authentication.js';
import type { OAuthAuthority } from '../../oauth/oauth-authority.js';
import { handleOAuthRequest, isOAuthPath } from '../../oauth/oauth-routes.js';
import type { Stage } from '../stage.js';

/** The caller of the OAuth endpoints, which need no access token. */
const oauthCaller: Principal = { clientId: 'oauth', scopes: [] };

/** Creates the stage over the authority. */
export function oauthEndpoints(authority: OAuthAuthority): Stage {
  return {
    name: 'oauth-endpoints',
    async run(exchange) {
      if (!isOAuthPath(exchange.path)) return undefined;
      if (exchange.preference.code !== undefined) {
        exchange.caller = { ok: true, principal: oauthCaller };
        return undefined;
      }
      return handleOAuthRequest(authority, exchange.request, exchange.url, exchange.hostMall);
    },
  };
}
