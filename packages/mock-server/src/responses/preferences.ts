// Reads what a QA engineer asked the mock to answer: `Prefer: code=404, example=name` or the query
// parameters `__code` / `__example`. Pure: it returns the preference and the query without the
// mock's own `__*` parameters (which are never validated as API parameters) — a copy when there
// were any, the same object otherwise; it changes nothing.

/** The response a caller asked for, if any. */
export interface ResponsePreference {
  code?: number;
  example?: string;
}

const controlParameters = ['__code', '__example', '__dynamic', '__seed'];

/** Parses `Prefer` (RFC 7240 style, `code=` and `example=`), falling back to `__code` / `__example`. */
export function readPreference(
  preferHeader: string | undefined,
  query: URLSearchParams,
): { preference: ResponsePreference; apiQuery: URLSearchParams } {
  // Most requests ask for nothing: no Prefer header and none of the mock's own parameters.
  if (!preferHeader && !controlParameters.some((name) => query.has(name)))
    return { preference: {}, apiQuery: query };
  const preference: ResponsePreference = {};
  const pairs = new Map<string, string>();
  for (const part of (preferHeader ?? '').split(/[,;]/)) {
    const [key, ...rest] = part.trim().split('=');
    if (key && rest.length > 0)
      pairs.set(key.trim().toLowerCase(), rest.join('=').trim().replace(/^"|"$/g, ''));
  }
  const code = pairs.get('code') ?? query.get('__code') ?? undefined;
  const example = pairs.get('example') ?? query.get('__example') ?? undefined;
  if (code !== undefined && /^\d{3}$/.test(code)) preference.code = Number(code);
  if (example) preference.example = example;
  if (!controlParameters.some((name) => query.has(name))) return { preference, apiQuery: query };
  const apiQuery = new URLSearchParams(query);
  for (const name of controlParameters) apiQuery.delete(name);
  return { preference, apiQuery };
}
