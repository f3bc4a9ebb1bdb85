// What a list answer must show about the request that asked for it, derived from the operation's
// parameters: no more items than `limit`; with an enum-valued filter named like an item property,
// only items with that value; with `sort` and `order`, the items in that order: what an example
// transaction cannot see. Pages under `offset` need two answers (request-checks.ts).
import type { Json, JsonObject, OperationEntry } from '@mall-api/spec-model';
import { isJsonObject } from '@mall-api/spec-model';

/** The items of a list answer: the first top-level array of objects in the body. */
export function listItems(body: Json | undefined): JsonObject[] | undefined {
  if (!isJsonObject(body)) return undefined;
  const list = Object.values(body).find((value) => Array.isArray(value) && value.every(isJsonObject));
  return Array.isArray(list) ? list.filter(isJsonObject) : undefined;
}

const compare = (a: Json | undefined, b: Json | undefined): number | undefined => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [Number(a), Number(b)];
    if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return undefined;
};

/** Whether an item's attribute holds a filter value: equal, or for a list attribute, containing it. */
const holds = (attribute: Json | undefined, value: Json) =>
  Array.isArray(attribute)
    ? attribute.map(String).includes(String(value))
    : String(attribute) === String(value);

/** Problems of a 2xx list answer of `operation` to `query`; none for an answer that is not a list. */
export function listProblems(
  operation: OperationEntry,
  query: Readonly<Record<string, Json>>,
  body: Json | undefined,
): string[] {
  const items = listItems(body);
  if (!items) return [];
  const problems: string[] = [];
  const names = new Set(operation.parameters.map((p) => p.name));
  const limit = query.limit;
  if (names.has('limit') && typeof limit === 'number' && items.length > limit)
    problems.push(`limit=${limit} answered with ${items.length} items`);
  for (const parameter of operation.parameters) {
    const value = query[parameter.name];
    if (parameter.in !== 'query' || value === undefined || !Array.isArray(parameter.schema.enum)) continue;
    if (['sort', 'order', 'limit', 'offset'].includes(parameter.name)) continue;
    const stray = items.find((item) => parameter.name in item && !holds(item[parameter.name], value));
    if (stray)
      problems.push(
        `${parameter.name}=${value} answered an item with ${parameter.name}=${String(stray[parameter.name])}`,
      );
  }
  const defaultOf = (name: string) => operation.parameters.find((p) => p.name === name)?.schema.default;
  const sortValue = query.sort ?? defaultOf('sort');
  const orderValue = query.order ?? defaultOf('order');
  const sort = typeof sortValue === 'string' ? sortValue : undefined;
  const order = orderValue === undefined ? undefined : String(orderValue);
  if (sort && order && names.has('order')) {
    const descending = order.startsWith('desc');
    for (let i = 1; i < items.length; i++) {
      const difference = compare(items[i - 1]?.[sort], items[i]?.[sort]);
      if (difference !== undefined && (descending ? difference < 0 : difference > 0)) {
        problems.push(`sort=${sort}&order=${order}: item ${i - 1} and ${i} are out of order`);
        break;
      }
    }
  }
  return problems;
}
