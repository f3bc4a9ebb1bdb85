// What the mock OAuth authority takes from the specs of the APIs whose tokens it issues: the
// lifetimes of codes and tokens (`x-token-lifetimes`), the names issued tokens list scopes under
// (`x-scope-aliases`) and the scopes the authorization-code flows offer (which the demo app may be
// granted). Worked out per spec when an API is compiled (compiled-api.ts), then merged over the APIs
// one authority serves; no spec is read here.
import { isJsonObject, type JsonObject, resolveOptional, tokenLifetimesOf } from '@mall-api/spec-model';
import { type ScopeAliases, scopeAliasesFromSpec } from './scope-names.js';

/** Lifetimes, in milliseconds. */
export interface OAuthLifetimes {
  readonly codeMs: number;
  readonly accessTokenMs: number;
  readonly refreshTokenMs: number;
}

/** The authority's settings, as the specs state them. */
export interface OAuthSettings {
  readonly lifetimes: OAuthLifetimes;
  readonly scopeAliases: ScopeAliases;
  /** Every scope the APIs' OAuth authorization-code flows offer. */
  readonly scopes: readonly string[];
}

/** The security schemes of a document (resolved), if it declares any. */
const schemesOf = (document: JsonObject) =>
  Object.values(
    resolveOptional(document, resolveOptional(document, document.components)?.securitySchemes) ?? {},
  ).map((scheme) => resolveOptional(document, scheme));

/**
 * The lifetimes a document's OAuth security schemes state in `x-token-lifetimes` (seconds);
 * undefined when no scheme states all three.
 */
export function lifetimesFromSpec(document: JsonObject): OAuthLifetimes | undefined {
  const stated = tokenLifetimesOf(document);
  return stated
    ? {
        codeMs: stated.authorizationCodeSeconds * 1000,
        accessTokenMs: stated.accessTokenSeconds * 1000,
        refreshTokenMs: stated.refreshTokenSeconds * 1000,
      }
    : undefined;
}

/** The scopes a document's OAuth authorization-code flows offer. */
export function flowScopesFromSpec(document: JsonObject): string[] {
  return schemesOf(document).flatMap((scheme) => {
    const flows = resolveOptional(document, scheme?.flows);
    const scopes = resolveOptional(document, resolveOptional(document, flows?.authorizationCode)?.scopes);
    return isJsonObject(scopes) ? Object.keys(scopes) : [];
  });
}

/** What one spec says about OAuth (its lifetimes only if it states them). */
export interface SpecOAuth extends Omit<OAuthSettings, 'lifetimes'> {
  readonly lifetimes: OAuthLifetimes | undefined;
}

/** What a document says about OAuth: its lifetimes, scope aliases and offered scopes. */
export const specOAuth = (document: JsonObject): SpecOAuth => ({
  lifetimes: lifetimesFromSpec(document),
  scopeAliases: scopeAliasesFromSpec(document),
  scopes: flowScopesFromSpec(document),
});

/**
 * The authority's settings over the APIs whose tokens it issues: the first stated lifetimes, every
 * alias, every offered scope.
 *
 * @throws when none of the APIs states `x-token-lifetimes`.
 */
export function oauthSettingsOf(apis: readonly SpecOAuth[]): OAuthSettings {
  const lifetimes = apis.map((api) => api.lifetimes).find((stated) => stated !== undefined);
  if (!lifetimes) throw new Error('no spec states x-token-lifetimes on an OAuth security scheme');
  return {
    lifetimes,
    scopeAliases: new Map(apis.flatMap((api) => [...api.scopeAliases])),
    scopes: [...new Set(apis.flatMap((api) => api.scopes))],
  };
}
