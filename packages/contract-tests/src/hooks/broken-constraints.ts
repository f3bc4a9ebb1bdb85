// The request a transaction starts from, made valid or broken on purpose: one member of each
// mutually exclusive pair of query parameters dropped, or one schema constraint broken for a 422.
import { type OperationEntry, parameterRulesOf } from '@mall-api/spec-model';
import type { DreddTransaction } from './dredd-transaction.js';

/** Drops the first member of every mutually exclusive pair present, so the base request is valid. */
export function dropExclusive(operation: OperationEntry, params: URLSearchParams): void {
  for (const [first, second] of parameterRulesOf(operation).mutuallyExclusive)
    if (params.has(first) && params.has(second)) params.delete(first);
}

/**
 * Breaks one schema constraint: for a JSON body, `request` sent as an array (one object per call
 * is the rule); else a missing required query parameter, a query value over its maximum, or a
 * non-numeric path id. Returns the path to request, or undefined when the operation has nothing to
 * break.
 */
export function breakConstraint(
  transaction: DreddTransaction,
  operation: OperationEntry,
  path: string,
  params: URLSearchParams,
): { path: string } | undefined {
  if (transaction.request.body) {
    const body = JSON.parse(transaction.request.body) as Record<string, unknown>;
    body.request = [body.request];
    transaction.request.body = JSON.stringify(body);
    return { path };
  }
  const query = operation.parameters.filter((p) => p.in === 'query');
  const required = query.find((p) => p.required);
  if (required) {
    params.delete(required.name);
    return { path };
  }
  const bounded = query.find((p) => typeof p.schema.maximum === 'number');
  if (bounded) {
    params.set(bounded.name, String(Number(bounded.schema.maximum) + 1));
    return { path };
  }
  const idParameter = operation.parameters.find((p) => p.in === 'path' && p.schema.type === 'integer');
  if (idParameter) {
    const template = transaction.origin.resourceName.split('/');
    const segments = path.split('/');
    segments[template.indexOf(`{${idParameter.name}}`)] = 'not-a-number';
    return { path: segments.join('/') };
  }
  return undefined;
}
