// The credentials the mocks accept out of the box: Basic clients of the collection API, with the
// scopes each carries, and the OAuth app registered with the mock platform for the admin and
// analytics APIs. The scopes are read from the specs (`x-required-scope`, the OAuth flows' scopes).
// Demo values for local QA, printed by `npm start`; no production secret lives here.
import { isJsonObject, loadSpecSync, type SpecModel } from '@mall-api/spec-model';
import type { RegisteredApp } from './oauth/oauth-authority.js';

const collection = loadSpecSync('collection');
/** The scope an operation requires, as its spec says (`x-required-scope`). */
const scopesOf = (spec: SpecModel, operationId: string): string[] => {
  const scope = spec.operation(operationId)?.requiredScope;
  return scope ? [scope] : [];
};
/** Every scope the collection API's operations require. */
const collectionScopes = [
  ...new Set(collection.operations.flatMap((op) => scopesOf(collection, op.operationId))),
];
/** The scopes an API's OAuth authorization-code flow offers. */
function oauthScopes(spec: SpecModel): string[] {
  const schemes = spec.resolveOptional(spec.resolveOptional(spec.document.components)?.securitySchemes);
  const flow = spec.resolveOptional(spec.resolveOptional(schemes?.oauth2)?.flows);
  const scopes = spec.resolveOptional(flow?.authorizationCode)?.scopes;
  return isJsonObject(scopes) ? Object.keys(scopes) : [];
}

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
    scopes: collectionScopes,
  },
  {
    clientId: 'shops-only-partner',
    clientSecret: 'shops-only-secret',
    scopes: scopesOf(collection, 'listShops'),
  },
];

/**
 * The documentation site's OAuth redirect page (`docs/dist/oauth/callback.html`), where the
 * reference console's "Get a demo token" lands when the site is served from a loopback address.
 */
export const docsRedirectPath = '/oauth/callback.html';

/**
 * The demo OAuth app: any loopback `/callback` redirect on any port (apps and CLIs), the docs
 * site's redirect page on any loopback port, every platform scope.
 */
export const demoOAuthApp: RegisteredApp = {
  clientId: 'demo-app',
  clientSecret: 'demo-app-secret',
  redirectUris: ['http://127.0.0.1', 'http://localhost'].flatMap((origin) => [
    `${origin}/callback`,
    `${origin}${docsRedirectPath}`,
  ]),
  scopes: [...new Set([...oauthScopes(loadSpecSync('admin')), ...oauthScopes(loadSpecSync('analytics'))])],
};
