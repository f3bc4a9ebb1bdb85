// What distinguishes the APIs served by the mock besides their specs: name, default port, how
// callers authenticate, which status a missing scope gets and whether the API serves the OAuth
// endpoints. Rate limits, what they count per and HTTPS-only are read from each spec
// (`x-rate-limit`, `x-https-only`). One table; the server code has no per-API branches of its own.
import type { ApiName } from '@mall-api/spec-model';

/** Names of the APIs the mock server can serve: the platform's APIs, as the spec model lists them. */
export type { ApiName };

/** Static description of one API as the mock server serves it. */
export interface ApiProfile {
  readonly name: ApiName;
  /** Default TCP port on 127.0.0.1. */
  readonly defaultPort: number;
  /** `basic`: client ID and secret; `bearer`: access tokens from the mock OAuth authority. */
  readonly auth: 'basic' | 'bearer';
  /** Status for a caller whose credential lacks the operation's scope (collection: 401; admin, analytics: 403). */
  readonly missingScopeStatus: 401 | 403;
  /** Whether this API also serves the OAuth authorize and token endpoints. */
  readonly servesOAuth: boolean;
}

/** Every API the mock server knows, by name. */
export const apiProfiles: Readonly<Record<ApiName, ApiProfile>> = {
  collection: {
    name: 'collection',
    defaultPort: 4010,
    auth: 'basic',
    missingScopeStatus: 401,
    servesOAuth: false,
  },
  admin: {
    name: 'admin',
    defaultPort: 4011,
    auth: 'bearer',
    missingScopeStatus: 403,
    servesOAuth: true,
  },
  analytics: {
    name: 'analytics',
    defaultPort: 4012,
    auth: 'bearer',
    missingScopeStatus: 403,
    servesOAuth: false,
  },
};
