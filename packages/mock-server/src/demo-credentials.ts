// The Basic credentials the collection mock accepts out of the box, with the scopes each carries.
// They are demo values for local QA, printed by `npm start`; production secrets never live here.

/** A client credential the mock accepts, with its granted scopes. */
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
