// Answers the sandbox keeps: a mall's own reads (`keptAnswers`, a `found` outcome per operation and
// parameters, its JSON text serialized once, until a write to a table it reads) and the collection's
// reads over every mall (`keptOverMalls`, until the malls' change log moves). Refusals are never
// kept; which handlers are reads is the views' call.
import type { SandboxStore, StoreTable } from '@mall-api/mall-state';
import { keptFound } from '../sandbox-result.js';
import { derivedFrom } from '../support/derived.js';
import { cached } from '../support/memo.js';
import type { RecentValues } from '../support/recent-values.js';
import type { AnyHandler } from './handler-types.js';
import type { MallChanges } from './mall-changes.js';

/** Kept answers by operation and parameters; a new (empty) map once they are out of date. */
type Answers = Map<string, ReturnType<AnyHandler>>;

/** The JSON text of frozen parameter objects (the front layer hands the same frozen query again per URL). */
const frozenText = new WeakMap<object, string>();
/** A call's parameters as JSON text, worked out once for a frozen object. */
const textOf = (parameters: unknown): string =>
  typeof parameters === 'object' && parameters !== null && Object.isFrozen(parameters)
    ? cached(frozenText, parameters, () => JSON.stringify(parameters))
    : JSON.stringify(parameters);

/** Wraps read handlers so each keeps its answers in the map `current()` gives. */
function keptIn(
  current: () => Answers,
  capacity: number,
): (operationId: string, read: AnyHandler) => AnyHandler {
  return (operationId, read) => (input) => {
    const answers = current();
    const key = `${operationId}|${textOf(input.path)}|${textOf(input.query)}`;
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

/** Wraps read handlers of one mall so each keeps its answers until `tables` change. */
export function keptAnswers(
  store: SandboxStore,
  tables: readonly StoreTable[],
  capacity: number,
  recent?: RecentValues,
): (operationId: string, read: AnyHandler) => AnyHandler {
  return keptIn(
    derivedFrom(store, tables, () => new Map(), recent),
    capacity,
  );
}

/** Wraps read handlers over every mall so each keeps its answers until a mall changes. */
export function keptOverMalls(
  changes: MallChanges,
  capacity: number,
): (operationId: string, read: AnyHandler) => AnyHandler {
  let answers: Answers = new Map();
  let position = changes.position();
  return keptIn(() => {
    if (changes.position() !== position) {
      answers = new Map();
      position = changes.position();
    }
    return answers;
  }, capacity);
}
