// The bearer credentials of the admin and analytics clients: a token manager from @mall-api/auth
// (refreshes ahead of expiry and once after a 401, safely across workers), or a fixed access
// token for scripts and tests.
import { createBearerMiddleware, type TokenManager } from '@mall-api/auth';
import type { Middleware } from 'openapi-fetch';

/** A token manager, or one access token used as is. */
export type BearerAuth = TokenManager | { accessToken: string };

/** The middleware that authenticates requests with `auth`. */
export function bearerAuthMiddleware(auth: BearerAuth, fetch?: typeof globalThis.fetch): Middleware {
  if ('accessToken' in auth) {
    const header = `Bearer ${auth.accessToken}`;
    return {
      onRequest({ request }) {
        request.headers.set('Authorization', header);
        return request;
      },
    };
  }
  return createBearerMiddleware(auth, fetch ? { fetch } : {}) as Middleware;
}
