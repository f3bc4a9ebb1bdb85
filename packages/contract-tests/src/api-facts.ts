// What the runner needs to know about an API, read from its bundled spec through
// @mall-api/spec-model: how callers authenticate (the document's security scheme), the OAuth
// scopes its oauth2 scheme defines, and whether it serves the OAuth endpoints.
import { type ApiName, apiNames, bundledSpecPath, loadSpec } from '@mall-api/spec-model';

/** How an API is called and tested. */
export interface ApiFacts {
  readonly api: ApiName;
  readonly specFile: string;
  /** `basic`: client ID and secret on every call; `bearer`: OAuth access tokens. */
  readonly auth: 'basic' | 'bearer';
  /** The OAuth scopes the API's oauth2 security scheme defines (none for Basic). */
  readonly scopes: readonly string[];
  /** Whether the API serves `/api/v2/oauth/authorize` and `/token` itself. */
  readonly servesOAuth: boolean;
}

/** Whether `name` is one of the platform's APIs. */
export const isApiName = (name: string): name is ApiName => (apiNames as readonly string[]).includes(name);

/** Reads the facts of one API from its bundle. */
export async function apiFacts(api: string): Promise<ApiFacts> {
  if (!isApiName(api)) throw new Error(`unknown API ${api}; known: ${apiNames.join(', ')}`);
  const model = await loadSpec(api);
  const security = model.document.security;
  const [requirement] = Array.isArray(security) ? security : [];
  const [schemeName = ''] = requirement && typeof requirement === 'object' ? Object.keys(requirement) : [];
  const schemes = model.resolveOptional(model.resolveOptional(model.document.components)?.securitySchemes);
  const scheme = model.resolveOptional(schemes?.[schemeName]);
  const scopes = new Set<string>();
  for (const candidate of Object.values(schemes ?? {})) {
    const definition = model.resolveOptional(candidate);
    if (definition?.type !== 'oauth2') continue;
    for (const flow of Object.values(model.resolveOptional(definition.flows) ?? {}))
      for (const scope of Object.keys(model.resolveOptional(model.resolveOptional(flow)?.scopes) ?? {}))
        scopes.add(scope);
  }
  return {
    api,
    specFile: bundledSpecPath(api),
    auth: scheme?.type === 'http' && scheme.scheme === 'basic' ? 'basic' : 'bearer',
    scopes: [...scopes].sort(),
    servesOAuth: model.operations.some((operation) => operation.pathTemplate === '/api/v2/oauth/token'),
  };
}

/** OAuth scopes the platform's other APIs define and this one does not: a token with only them is forbidden here. */
export async function scopesOutside(api: ApiName): Promise<string[]> {
  const own = new Set((await apiFacts(api)).scopes);
  const others = await Promise.all(apiNames.filter((name) => name !== api).map((name) => apiFacts(name)));
  return [...new Set(others.flatMap((facts) => facts.scopes))].filter((scope) => !own.has(scope)).sort();
}
