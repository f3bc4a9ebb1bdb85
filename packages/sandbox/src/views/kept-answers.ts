// Answers the sandbox keeps, for a mall's own reads (`keptAnswers`) and for the collection's reads
// over every mall (`keptOverMalls`: kept until the malls' change log moves — a product or category
// written in any mall, a mall created, replaced or dropped, mall-changes.ts — at most `capacity`).
// Answers a mall keeps: a read handler's `found` outcome for one operation and one set of path and
// query parameters, kept with its JSON text serialized once, given again as is until a write to a
// table the answers read (the store's revisions say), then computed afresh. At most `capacity`
// answers per mall; past it the oldest is dropped; with `recent`, only while the mall is among those
// used last (see recent-values.ts). Only `found` outcomes are kept: a refusal is thrown or returned
// each time. A frozen parameter object (the front layer hands the same one again for the same URL)
// becomes its key's text once. Which handlers are reads and which tables they read is the views'
// call, not this file's.
import type { SandboxStore, StoreTable } from '@mall-api/mall-state';
import { keptFound } from '../sandbox-result.js';
import { derivedFrom } from '../support/derived.js';
import type { RecentValues } from '../support/recent-values.js';
import type { AnyHandler } from './handler-types.js';
import type { MallChanges } from './mall-changes.js';

/** Kept answers by operation and parameters; a new (empty) map once they are out of date. */
type Answers = Map<string, ReturnType<AnyHandler>>;

/** The JSON text of frozen parameter objects (the front layer hands the same frozen query again per URL). */
const frozenText = new WeakMap<object, string>();
/** A call's parameters as JSON text, worked out once for a frozen object. */
function textOf(parameters: unknown): string {
  if (typeof parameters !== 'object' || parameters === null || !Object.isFrozen(parameters))
    return JSON.stringify(parameters);
  let text = frozenText.get(parameters);
  if (text === undefined) {
    text = JSON.stringify(parameters);
    frozenText.set(parameters, text);
  }
  return text;
}

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
