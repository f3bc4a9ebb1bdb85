// What distinguishes the APIs served by the mock: name, default port, bundled spec, how callers
// authenticate, which status a missing scope gets, what a rate limit is keyed on, and the
// transport rules. One table; the server code reads it and has no per-API branches of its own.

/** Names of the APIs the mock server can serve. */
export type ApiName = 'collection' | 'admin' | 'analytics';

/** Static description of one API as the mock server serves it. */
export interface ApiProfile {
  readonly name: ApiName;
  /** Default TCP port on 127.0.0.1. */
  readonly defaultPort: number;
  /** `basic`: client ID and secret; `bearer`: access tokens from the mock OAuth authority. */
  readonly auth: 'basic' | 'bearer';
  /** Status for a caller whose credential lacks the operation's scope (collection: 401; admin, analytics: 403). */
  readonly missingScopeStatus: 401 | 403;
  /** What the rate limit counts per: the client's IP, or the mall of the access token (unauthenticated calls count per IP). */
  readonly rateLimitKey: 'client-ip' | 'mall';
  /** Whether this API also serves the OAuth authorize and token endpoints. */
  readonly servesOAuth: boolean;
  /** Whether a request that says it came over plain HTTP (`X-Forwarded-Proto: http`) is refused with 403. */
  readonly httpsOnly: boolean;
}

/** Every API the mock server knows, by name. */
export const apiProfiles: Readonly<Record<ApiName, ApiProfile>> = {
  collection: {
    name: 'collection',
    defaultPort: 4010,
    auth: 'basic',
    missingScopeStatus: 401,
    rateLimitKey: 'client-ip',
    servesOAuth: false,
    httpsOnly: false,
  },
  admin: {
    name: 'admin',
    defaultPort: 4011,
    auth: 'bearer',
    missingScopeStatus: 403,
    rateLimitKey: 'mall',
    servesOAuth: true,
    httpsOnly: true,
  },
  analytics: {
    name: 'analytics',
    defaultPort: 4012,
    auth: 'bearer',
    missingScopeStatus: 403,
    rateLimitKey: 'mall',
    servesOAuth: false,
    httpsOnly: true,
  },
};
