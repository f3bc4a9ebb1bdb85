// Clients generated from the platform's reference send an operation's path ids again: in the query
// of a GET or DELETE (`/categories/100?category_no=100`) and inside the body's `request` object (or
// beside it) of a PUT or POST. The service accepts them when they agree with the path, so the mock
// does too: an agreeing copy is dropped before validation, a differing one is a violation naming
// the field. Values agree when they are equal as text or, for numeric path ids, as numbers.
import type { OperationEntry } from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';

/** The query and body with agreeing repeats removed, and the repeats that disagree. */
export interface ReconciledRequest {
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly violations: Violation[];
}

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const agrees = (pathValue: string, repeated: unknown): boolean =>
  (typeof repeated === 'string' || typeof repeated === 'number') &&
  (String(repeated) === pathValue ||
    (/^-?\d+(\.\d+)?$/.test(pathValue) &&
      Number(repeated) === Number(pathValue) &&
      String(repeated).trim() !== ''));

const mismatch = (location: 'query' | 'body', name: string, value: string): Violation => ({
  location,
  name,
  message: `must equal the path's value (${value}) when it is repeated`,
});

const names = new WeakMap<OperationEntry, { pathNames: string[]; declaredInQuery: Set<string> }>();
/** The operation's path parameter names and its query parameter names, worked out once. */
function namesOf(operation: OperationEntry) {
  let known = names.get(operation);
  if (!known) {
    known = {
      pathNames: operation.parameters.filter((p) => p.in === 'path').map((p) => p.name),
      declaredInQuery: new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)),
    };
    names.set(operation, known);
  }
  return known;
}

/** Drops the path ids a request repeats where they agree with the path; reports those that do not. */
export function reconcileRepeatedPathIds(
  operation: OperationEntry,
  pathParameters: Readonly<Record<string, string>>,
  query: URLSearchParams,
  body: unknown,
): ReconciledRequest {
  const { pathNames, declaredInQuery } = namesOf(operation);
  if (pathNames.length === 0) return { query, body, violations: [] };
  const violations: Violation[] = [];
  let keptQuery = query;
  let keptBody = body;
  for (const name of pathNames) {
    const value = pathParameters[name];
    if (value === undefined) continue;
    if (query.has(name) && !declaredInQuery.has(name)) {
      if (query.getAll(name).every((repeated) => agrees(value, repeated))) {
        if (keptQuery === query) keptQuery = new URLSearchParams(query);
        keptQuery.delete(name);
      } else violations.push(mismatch('query', name, value));
    }
    for (const [container, prefix] of [
      [isFields(keptBody) ? keptBody : undefined, ''],
      [isFields(keptBody) && isFields(keptBody.request) ? keptBody.request : undefined, 'request.'],
    ] as const) {
      if (!container || !(name in container)) continue;
      if (!agrees(value, container[name])) {
        violations.push(mismatch('body', `${prefix}${name}`, value));
        continue;
      }
      const { [name]: _dropped, ...rest } = container;
      keptBody = prefix === '' ? rest : { ...(keptBody as Fields), request: rest };
    }
  }
  return { query: keptQuery, body: keptBody, violations };
}
