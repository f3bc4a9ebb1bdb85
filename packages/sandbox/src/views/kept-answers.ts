// Answers a mall keeps: a read handler's `found` outcome for one operation and one set of path and
// query parameters, kept with its JSON text serialized once, given again as is until a write to a
// table the answers read (the store's revisions say), then computed afresh. At most `capacity`
// answers per mall; past it the oldest is dropped; with `recent`, only while the mall is among those
// used last (see recent-values.ts). Only `found` outcomes are kept: a refusal is thrown or returned
// each time. Which handlers are reads and which tables they read is the views' call, not this file's.
import type { SandboxStore, TableName } from '@mall-api/mall-state';
import { keptFound } from '../sandbox-result.js';
import { derivedFrom } from '../support/derived.js';
import type { RecentValues } from '../support/recent-values.js';
import type { AnyHandler } from './handler-types.js';

/** Wraps read handlers of one mall so each keeps its answers until `tables` change. */
export function keptAnswers(
  store: SandboxStore,
  tables: readonly TableName[],
  capacity: number,
  recent?: RecentValues,
): (operationId: string, read: AnyHandler) => AnyHandler {
  const kept = derivedFrom(store, tables, () => new Map<string, ReturnType<AnyHandler>>(), recent);
  return (operationId, read) => (input) => {
    const answers = kept();
    const key = `${operationId}|${JSON.stringify(input.path)}|${JSON.stringify(input.query)}`;
    const known = answers.get(key);
    if (known) return known;
    const result = read(input);
    if (!result.ok || result.kind !== 'found') return result;
    const answer = keptFound(result.body);
    answers.set(key, answer);
    if (answers.size > capacity) answers.delete(answers.keys().next().value as string);
    return answer;
  };
}
