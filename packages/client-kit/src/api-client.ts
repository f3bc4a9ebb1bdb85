// Assembles an openapi-fetch client the way all three mall clients need it: base URL, comma-list
// query serialization, an injectable fetch, default headers (set before any middleware runs, so a
// request the scheduler resends carries them too), and the auth and rate-limit middleware in the one
// order that works (auth first, so the copy the scheduler keeps for a 429 retry carries the
// credentials; the scheduler last, so it holds the request that is actually sent).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { commaListQuery } from './query-serializer.js';

/** What {@link assembleApiClient} needs. */
export interface ApiClientParts {
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request (e.g. an API version); a request's own headers win. */
  headers?: Readonly<Record<string, string>>;
  /** Adds credentials to each request (Basic or bearer). */
  auth: Middleware;
  /** Schedules requests under the API's rate limit; omit to send unscheduled. */
  rateLimit?: Middleware;
}

/** Creates an openapi-fetch client for `Paths` with the mall APIs' conventions. */
export function assembleApiClient<Paths extends {}>(parts: ApiClientParts): Client<Paths> {
  const client = createClient<Paths>({
    baseUrl: parts.baseUrl,
    querySerializer: commaListQuery,
    ...(parts.fetch ? { fetch: parts.fetch } : {}),
    ...(parts.headers ? { headers: { ...parts.headers } } : {}),
  });
  client.use(parts.auth);
  if (parts.rateLimit) client.use(parts.rateLimit);
  return client;
}
