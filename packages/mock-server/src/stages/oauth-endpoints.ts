// Stage (admin API, first of the OAuth branch): the mock OAuth authorization server's endpoints,
// which need no access token. A `Host` that is not loopback, `*.localhost` or a configured public
// host is refused first (403, the API's envelope), so a DNS-rebound page gets no code or token. A
// request for a documented response (the mode says so) passes on, to be answered from the spec like
// any operation; every other one is answered by the authority itself for the request's mall.

import { isAllowedHost } from '../http/host-rule.js';
import type { OAuthAuthority } from '../oauth/oauth-authority.js';
import { handleOAuthRequest, isOAuthPath } from '../oauth/oauth-routes.js';
import type { Arrival, Identified } from '../pipeline/phases.js';
import { errorReply, type Reply } from '../pipeline/reply.js';
import type { Check } from '../pipeline/stage.js';
import { requestRuleNames } from '../validation/request-rules.js';

/** Whether a request is for the OAuth endpoints (the branch this stage starts). */
export const isOAuthRequest = (phase: Arrival): boolean => isOAuthPath(phase.path);

/**
 * Creates the stage over the authority.
 * @param publicHosts the server's public host names, admitted as `Host` besides loopback names
 */
export function oauthEndpoints(
  authority: OAuthAuthority,
  publicHosts: readonly string[] = [],
): Check<Identified> {
  return {
    name: 'oauth-endpoints',
    async run(phase): Promise<Reply | undefined> {
      if (!isAllowedHost(phase.request.headers.host, publicHosts)) {
        return errorReply(
          403,
          'The OAuth endpoints answer requests for loopback, *.localhost and the configured public host names only.',
        );
      }
      if (phase.mode.documented) return undefined;
      const reply = await handleOAuthRequest(authority, phase.request, phase.url, phase.mallId);
      // The token endpoint's refusal of the app's client credentials.
      return reply?.status === 401 ? { ...reply, refusedBy: [requestRuleNames.credentials] } : reply;
    },
  };
}
