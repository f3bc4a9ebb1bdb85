// How the platform names scopes in issued tokens, read from the specs: a security scheme's
// `x-scope-aliases` maps a requested scope to the name an issued token lists it under (the
// analytics spec: `mall.read_analytics` is listed as `mall.analytics`, seed 5); scopes without an
// alias are listed as asked. The authority (when issuing) and the scope check (when enforcing) use
// the same aliases. No scope name is written here; spec-model reads the extension.
import { type JsonObject, scopeAliasesOf } from '@mall-api/spec-model';

/** Requested scope -> the name an issued token lists it under. */
export type ScopeAliases = ReadonlyMap<string, string>;

/** The scope aliases the security schemes of `documents` declare in `x-scope-aliases`, merged. */
export function scopeAliasesFromSpec(...documents: readonly JsonObject[]): ScopeAliases {
  return new Map(documents.flatMap((document) => [...scopeAliasesOf(document)]));
}

/** The name under which a requested scope appears in an issued token. */
export function issuedScopeName(requested: string, aliases: ScopeAliases): string {
  return aliases.get(requested) ?? requested;
}

/** Whether a token's listed scopes grant `required`. */
export function grantsScope(listed: readonly string[], required: string, aliases: ScopeAliases): boolean {
  return listed.includes(required) || listed.includes(issuedScopeName(required, aliases));
}
