// The meaning of the security extensions of a document (specs/README.md, "Extensions"): the root
// `x-https-only` (plain HTTP is refused with its `status`), the OAuth schemes'
// `x-token-lifetimes` (how long codes and tokens live) and `x-scope-aliases` (the name an issued
// token lists a requested scope under). The mock, the conformance runner and the
// clients' generated flags read them here; what to do with them is theirs.
import { isJsonObject, type JsonObject, resolveOptional } from './json-document.js';

/** The status a plain-HTTP request gets when the document declares `x-https-only`, else undefined. */
export function httpsOnlyStatusOf(document: JsonObject): number | undefined {
  const rule = document['x-https-only'];
  return isJsonObject(rule) && typeof rule.status === 'number' ? rule.status : undefined;
}

/** The lifetimes an OAuth security scheme states, in seconds. */
export interface TokenLifetimes {
  readonly authorizationCodeSeconds: number;
  readonly accessTokenSeconds: number;
  readonly refreshTokenSeconds: number;
}

/** The first security scheme's `x-token-lifetimes` that states all three lifetimes, else undefined. */
export function tokenLifetimesOf(document: JsonObject): TokenLifetimes | undefined {
  const schemes = resolveOptional(document, resolveOptional(document, document.components)?.securitySchemes);
  for (const scheme of Object.values(schemes ?? {})) {
    const stated = resolveOptional(document, resolveOptional(document, scheme)?.['x-token-lifetimes']);
    const [code, access, refresh] = ['authorization-code', 'access-token', 'refresh-token'].map(
      (name) => stated?.[`${name}-seconds`],
    );
    if (typeof code === 'number' && typeof access === 'number' && typeof refresh === 'number')
      return { authorizationCodeSeconds: code, accessTokenSeconds: access, refreshTokenSeconds: refresh };
  }
  return undefined;
}

/**
 * The scope aliases the document's security schemes declare in `x-scope-aliases`: requested scope
 * to the name an issued token lists it under (the extension's `description` and `x-` keys are
 * prose, not aliases).
 */
export function scopeAliasesOf(document: JsonObject): Map<string, string> {
  const aliases = new Map<string, string>();
  const schemes = resolveOptional(document, resolveOptional(document, document.components)?.securitySchemes);
  for (const scheme of Object.values(schemes ?? {})) {
    const declared = resolveOptional(document, resolveOptional(document, scheme)?.['x-scope-aliases']);
    for (const [requested, listed] of Object.entries(declared ?? {})) {
      if (requested !== 'description' && !requested.startsWith('x-') && typeof listed === 'string')
        aliases.set(requested, listed);
    }
  }
  return aliases;
}
