// The credentials the mocks accept out of the box: Basic clients of the collection API, with the
// scopes each carries, and the OAuth app registered with the mock platform for the admin and
// analytics APIs. Demo values for local QA, printed by `npm start`; no production secret lives here.
import type { RegisteredApp } from './oauth/oauth-authority.js';

/** A client credential the collection mock accepts, with its granted scopes. */
export interface ClientCredential {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}

/** Demo credentials: one with every scope, one limited to shops (to exercise the missing-scope 401). */
export const demoCollectionCredentials: readonly ClientCredential[] = [
  {
    clientId: 'demo-partner',
    clientSecret: 'demo-partner-secret',
    scopes: ['collection.read_shop', 'collection.read_product'],
  },
  { clientId: 'shops-only-partner', clientSecret: 'shops-only-secret', scopes: ['collection.read_shop'] },
];

/** The demo OAuth app: any loopback `/callback` redirect on any port, every platform scope. */
export const demoOAuthApp: RegisteredApp = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
  scopes: [
    'mall.read_category',
    'mall.write_category',
    'mall.read_product',
    'mall.write_product',
    'mall.read_analytics',
  ],
};
