// Stage (admin API): the mock OAuth authorization server's endpoints. A request for a documented
// response (`Prefer: code=…` / `__code`) passes on, as the OAuth client, to be answered from the
// spec like any operation; every other OAuth request is answered by the authority itself for the
// mall the host names. A `Host` that is not loopback, `*.localhost` or a configured public host is
// refused first (403, the API's envelope), so a DNS-rebound page gets no code or token.
import type { Principal } from '../../authentication.js';
import { isAllowedHost } from '../../host-rule.js';
import type { OAuthAuthority } from '../../oauth/oauth-authority.js';
import { handleOAuthRequest, isOAuthPath } from '../../oauth/oauth-routes.js';
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The caller of the OAuth endpoints, which need no access token. */
const oauthCaller: Principal = { clientId: 'oauth', scopes: [] };

/**
 * Creates the stage over the authority.
 * @param publicHosts the server's public host names, admitted as `Host` besides loopback names
 */
export function oauthEndpoints(authority: OAuthAuthority, publicHosts: readonly string[] = []): Stage {
  return {
    name: 'oauth-endpoints',
    async run(exchange) {
      if (!isOAuthPath(exchange.path)) return undefined;
      if (!isAllowedHost(exchange.request.headers.host, publicHosts)) {
        return errorReply(
          403,
          'The OAuth endpoints answer requests for loopback, *.localhost and the configured public host names only.',
        );
      }
      if (exchange.preference.code !== undefined) {
        exchange.caller = { ok: true, principal: oauthCaller };
        return undefined;
      }
      return handleOAuthRequest(authority, exchange.request, exchange.url, exchange.hostMall);
    },
  };
}
