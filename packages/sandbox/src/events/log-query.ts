// The delivery log as `listWebhookLogs` answers it: the entries the query's filters select, by the
// meanings its parameters declare in the spec (`x-query`: event number, send window, success, kind),
// after the entry `since_log_id` names (the `page-after` role) and at most the page size asked.
// No parameter name is written here.
import type { QueryMeaning } from '@mall-api/spec-model';
import type { DeliveryLogEntry } from '../protocol.js';
import { declaredMatcher } from '../views/declared-filters.js';

/** The log entries `query` selects, oldest first. */
export function logPage(
  entries: readonly DeliveryLogEntry[],
  meanings: readonly QueryMeaning[],
  query: Readonly<Record<string, unknown>>,
): DeliveryLogEntry[] {
  let selected = entries.filter(declaredMatcher<DeliveryLogEntry>(meanings, query));
  for (const meaning of meanings) {
    const value = query[meaning.name];
    if (value === undefined) continue;
    if (meaning.role === 'page-after') {
      const field = meaning.field as keyof DeliveryLogEntry;
      const at = selected.findIndex((entry) => String(entry[field]) === String(value));
      selected = at < 0 ? [] : selected.slice(at + 1);
    }
  }
  const size = meanings.find((meaning) => meaning.role === 'page-size');
  const limit = size ? query[size.name] : undefined;
  return typeof limit === 'number' ? selected.slice(0, limit) : selected;
}
