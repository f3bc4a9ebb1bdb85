// The meaning of the security extensions of a document (specs/README.md, "Extensions"): the root
// `x-https-only` (plain HTTP is refused with its `status`) and the OAuth schemes'
// `x-token-lifetimes` (how long codes and tokens live). The mock, the conformance runner and the
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
