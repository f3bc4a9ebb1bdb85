// The bearer credentials of the admin and analytics clients: a token manager from @mall-api/auth
// (refreshes ahead of expiry and once after a 401, safely across workers), or a fixed access
// token for scripts and tests. The resend after a 401 goes through the client's own `fetch` (the
// request sender), so it is queued under the rate limit and timed out like any other attempt.
import { createBearerMiddleware, type TokenManager, type TokenRefreshEvent } from '@mall-api/auth';
import type { Middleware } from 'openapi-fetch';

/** A token manager, or one access token used as is. */
export type BearerAuth = TokenManager | { accessToken: string };

/** The middleware that authenticates requests with `auth`, telling `onTokenRefresh` of new tokens. */
export function bearerAuthMiddleware(
  auth: BearerAuth,
  onTokenRefresh?: (event: TokenRefreshEvent) => void,
): Middleware {
  if ('accessToken' in auth) {
    const header = `Bearer ${auth.accessToken}`;
    return {
      onRequest({ request }) {
        request.headers.set('Authorization', header);
        return request;
      },
    };
  }
  return createBearerMiddleware(auth, onTokenRefresh ? { onTokenRefresh } : {}) as Middleware;
}
