// An openapi-fetch middleware that authenticates API calls with the token manager's bearer token:
// `onRequest` sets `Authorization: Bearer <token>` and keeps a clone of the request (a body can be
// read only once), and `onResponse` answers a 401 by asking the manager for a replacement token once
// and resending the clone with it. The resent request's answer is returned as is, so a second 401
// reaches the caller instead of looping. A hook hears of every token replacement (with its duration,
// never the token). Structurally compatible with openapi-fetch's `Middleware` without importing it at
// run time. Not for the token endpoint itself (that uses Basic auth).
import type { FetchFunction } from './oauth-client.js';
import type { TokenManager } from './token-manager.js';

/** What `onRequest` reads from openapi-fetch's callback parameters. */
export interface BearerRequestParams {
  readonly request: Request;
}

/** What `onResponse` reads from openapi-fetch's callback parameters. */
export interface BearerResponseParams {
  readonly request: Request;
  readonly response: Response;
  /** openapi-fetch's merged client options; their `fetch` resends when none was configured here. */
  readonly options?: { readonly fetch?: FetchFunction };
}

/**
 * A token replacement seen by the middleware: `unauthorized` when it asked for a new token after a
 * 401; `rotated` when the manager handed out a different token than the previous request carried
 * (refreshed ahead of expiry, here or by another caller). `durationMs` is how long getting it took.
 */
export interface TokenRefreshEvent {
  readonly type: 'token-refresh';
  readonly reason: 'unauthorized' | 'rotated';
  readonly durationMs: number;
}

/** Options of {@link createBearerMiddleware}. */
export interface BearerMiddlewareOptions {
  /** Resends the request after a 401. Default: the client's `fetch`, else `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** Hears of every token replacement; it must not throw. */
  readonly onTokenRefresh?: (event: TokenRefreshEvent) => void;
}

/**
 * A middleware object accepted by openapi-fetch's `client.use(...)`. Register it LAST, so the
 * request it clones is the one that is actually sent.
 */
export interface BearerMiddleware {
  onRequest(params: BearerRequestParams): Promise<Request>;
  onResponse(params: BearerResponseParams): Promise<Response | undefined>;
}

interface RetryPlan {
  /** An unsent copy of the request, body included. */
  readonly retry: Request;
  /** The token the original request carried. */
  readonly accessToken: string;
}

/**
 * Creates the bearer-token middleware for one mall's {@link TokenManager}.
 *
 * Errors from the token manager (e.g. `ReauthorizationRequiredError`) propagate: openapi-fetch
 * then rejects the call with them.
 */
export function createBearerMiddleware(
  tokenManager: TokenManager,
  options: BearerMiddlewareOptions = {},
): BearerMiddleware {
  /** Requests that may still be retried once, keyed by the request openapi-fetch sends. */
  const retryPlans = new WeakMap<Request, RetryPlan>();
  let lastToken: string | undefined;
  /** Gets a token through `get`, reporting it when it differs from the last one. */
  const obtain = async (reason: TokenRefreshEvent['reason'], get: () => Promise<string>) => {
    const started = Date.now();
    const token = await get();
    if (lastToken !== undefined && token !== lastToken) {
      options.onTokenRefresh?.({ type: 'token-refresh', reason, durationMs: Date.now() - started });
    }
    lastToken = token;
    return token;
  };

  return {
    async onRequest({ request }) {
      const accessToken = await obtain('rotated', () => tokenManager.getAccessToken());
      request.headers.set('Authorization', `Bearer ${accessToken}`);
      retryPlans.set(request, { retry: request.clone(), accessToken });
      return request;
    },

    async onResponse({ request, response, options: clientOptions }) {
      const plan = retryPlans.get(request);
      retryPlans.delete(request); // one retry per request, whatever happens next
      if (response.status !== 401 || plan === undefined) {
        if (plan !== undefined) await plan.retry.body?.cancel();
        return undefined;
      }
      lastToken = plan.accessToken;
      const accessToken = await obtain('unauthorized', () =>
        tokenManager.refreshAfterUnauthorized(plan.accessToken),
      );
      await response.body?.cancel(); // the 401 is replaced by the retry's answer
      plan.retry.headers.set('Authorization', `Bearer ${accessToken}`);
      const resend = options.fetch ?? clientOptions?.fetch ?? globalThis.fetch;
      return resend(plan.retry);
    },
  };
}
