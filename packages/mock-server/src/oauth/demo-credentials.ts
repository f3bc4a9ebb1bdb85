// The credentials the mocks accept out of the box: Basic clients of the collection API, with the
// scopes each carries, and the OAuth app registered with the mock platform for the admin and
// analytics APIs. The scopes come from the spec models given (`x-required-scope`, the OAuth flows'
// scopes); no spec is read here. Demo values for local QA, printed by `npm start`; no production
// secret lives here.
import type { SpecModel } from '@mall-api/spec-model';
import type { RegisteredApp } from './authority-state.js';
import type { OAuthSettings } from './oauth-settings.js';

/** A client credential the collection mock accepts, with its granted scopes. */
export interface ClientCredential {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}

/** The demo Basic clients: one with every scope, one limited to shops (to exercise the missing-scope 401). */
export const demoCollectionClients = [
  { clientId: 'demo-partner', clientSecret: 'demo-partner-secret', operations: 'every' },
  { clientId: 'shops-only-partner', clientSecret: 'shops-only-secret', operations: ['listShops'] },
] as const;

/** The demo Basic clients with the scopes the collection spec's operations require (`x-required-scope`). */
export function demoCollectionCredentials(collection: SpecModel): ClientCredential[] {
  const scopesOf = (operationIds: readonly string[]) => [
    ...new Set(operationIds.flatMap((id) => collection.operation(id)?.requiredScope ?? [])),
  ];
  const every = collection.operations.map((operation) => operation.operationId);
  return demoCollectionClients.map(({ clientId, clientSecret, operations }) => ({
    clientId,
    clientSecret,
    scopes: scopesOf(operations === 'every' ? every : operations),
  }));
}

/**
 * The documentation site's OAuth redirect page (`docs/dist/oauth/callback.html`), where the
 * reference console's "Get a demo token" lands when the site is served from a loopback address.
 */
export const docsRedirectPath = '/oauth/callback.html';

/**
 * The demo OAuth app's client: any loopback `/callback` redirect on any port (apps and CLIs), the
 * docs site's redirect page on any loopback port.
 */
export const demoOAuthClient = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUris: ['http://127.0.0.1', 'http://localhost'].flatMap((origin) => [
    `${origin}/callback`,
    `${origin}${docsRedirectPath}`,
  ]),
} as const;

/** The demo OAuth app, registered for every scope the authority's settings offer. */
export const demoOAuthApp = (settings: Pick<OAuthSettings, 'scopes'>): RegisteredApp => ({
  ...demoOAuthClient,
  scopes: settings.scopes,
});
