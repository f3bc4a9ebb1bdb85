// Test support: a minimal analytics caller that authenticates with a token manager through the
// bearer middleware of @mall-api/auth (refresh ahead of expiry, and once after a 401), without
// depending on the analytics client package (which depends on this one).
import { createBearerMiddleware, type TokenManager } from '@mall-api/auth';

/** Returns a function that GETs one analytics report and resolves to the final status. */
export function createAnalyticsClientForTest(baseUrl: string, manager: TokenManager): () => Promise<number> {
  const middleware = createBearerMiddleware(manager);
  return async () => {
    const request = new Request(
      `${baseUrl}/visitors/view?mall_id=demomall&start_date=2026-10-01&end_date=2026-10-02`,
    );
    const prepared = (await middleware.onRequest({ request } as never)) ?? request;
    const response = await fetch(prepared);
    const final = (await middleware.onResponse({ request: prepared, response } as never)) ?? response;
    return final.status;
  };
}
