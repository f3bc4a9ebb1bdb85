// How the platform names scopes in issued tokens. An app asks for `mall.read_analytics`, but the
// token lists `mall.analytics` (analytics seed, section 5); every other scope is listed as asked.
// Both the authority (when issuing) and the scope check (when enforcing) use this one table.

const listedAs: Readonly<Record<string, string>> = { 'mall.read_analytics': 'mall.analytics' };

/** The name under which a requested scope appears in an issued token. */
export function issuedScopeName(requested: string): string {
  return listedAs[requested] ?? requested;
}

/** Whether a token's listed scopes grant `required`. */
export function grantsScope(listed: readonly string[], required: string): boolean {
  return listed.includes(required) || listed.includes(issuedScopeName(required));
}
