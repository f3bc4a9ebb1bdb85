// What distinguishes the APIs served by the mock: name, default port, bundled spec, how callers
// authenticate, which status a missing scope gets, and which rate limit applies. One table; the
// server code reads it and has no per-API branches of its own.

/** Names of the APIs the mock server can serve. */
export type ApiName = 'collection';

/** Static description of one API as the mock server serves it. */
export interface ApiProfile {
  readonly name: ApiName;
  /** Default TCP port on 127.0.0.1. */
  readonly defaultPort: number;
  /** File name of the bundled spec inside `@mall-api/specs`. */
  readonly specFile: string;
  readonly auth: 'basic';
  /** Status for a caller whose credential lacks the operation's scope (the collection seed says 401). */
  readonly missingScopeStatus: 401 | 403;
}

/** Every API the mock server knows, by name. */
export const apiProfiles: Readonly<Record<ApiName, ApiProfile>> = {
  collection: {
    name: 'collection',
    defaultPort: 4010,
    specFile: 'collection.openapi.json',
    auth: 'basic',
    missingScopeStatus: 401,
  },
};
