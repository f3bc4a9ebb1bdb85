// The malls one sandbox process holds over its storage (a state record and functions over it):
// the Mall of each id over the store the storage gives, made anew when that store is new, forgotten
// when dropped; the collection's reads over every mall; who hears of outbox changes. When malls are
// read, written or replaced is sandbox-malls.ts's.
import { type CatchUpHooks, type MallStorage, type SandboxStore, tableNames } from '@mall-api/mall-state';
import type { ApiSpecs } from '@mall-api/spec-model';
import { recordShapes } from '../catalogue/record-shapes.js';
import type { SandboxApi, SandboxCall } from '../protocol.js';
import type { CollectionStore } from '../views/collection-store.js';
import { createCollectionView } from '../views/collection-view.js';
import { type AnyHandler, handlerTable, wrapEach } from '../views/handler-types.js';
import { keptOverMalls } from '../views/kept-answers.js';
import { createMallChanges, type MallChanges } from '../views/mall-changes.js';
import type { Mall } from './mall.js';
import type { MallStarts } from './mall-starts.js';

/** Collection answers kept at most (each over every mall, until a mall changes). */
const collectionAnswerCapacity = 256;

/** The malls a sandbox holds. */
export interface HeldMalls {
  readonly storage: MallStorage;
  readonly starts: MallStarts;
  readonly specs: ApiSpecs;
  readonly malls: Map<string, Mall>;
  /** Changes to each mall's collection data, so answers over every mall recount only changed malls. */
  readonly changes: MallChanges;
  /** The collection's reads, by operation id. */
  readonly collection: ReadonlyMap<string, AnyHandler>;
  /** The malls' collection stores in mall-id order, kept until a mall is created or dropped. */
  inOrder: CollectionStore[] | undefined;
  /** Who hears that a mall's outbox of events changed (events/mall-events.ts). */
  readonly outboxListeners: Set<(mallId: string) => void>;
}

/** The malls of a sandbox over `storage`, none held yet; every change the storage makes marks the change log. */
export function heldMalls(storage: MallStorage, starts: MallStarts, specs: ApiSpecs): HeldMalls {
  const changes = createMallChanges();
  const outboxListeners = new Set<(mallId: string) => void>();
  storage.observe((mallId, table) => {
    if (table === 'product' || table === 'category') changes.mark(mallId);
    if (table === 'event') for (const listener of outboxListeners) listener(mallId);
  });
  const malls = new Map<string, Mall>();
  const keep = keptOverMalls(changes, collectionAnswerCapacity);
  const reads = createCollectionView(
    () => {
      held.inOrder ??= [...malls.values()]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((mall) => mall.collection);
      return held.inOrder;
    },
    recordShapes(specs.collection),
    { changes, storeOf: (mallId) => malls.get(mallId)?.collection },
  );
  const collection = handlerTable(wrapEach(reads, (read, operationId) => keep(operationId, read)));
  const held: HeldMalls = {
    storage,
    starts,
    specs,
    malls,
    changes,
    collection,
    inOrder: undefined,
    outboxListeners,
  };
  return held;
}

/** Makes `mall` the one of its id (a new one, or the next store of an existing one). */
export function install(held: HeldMalls, mall: Mall): void {
  const old = held.malls.get(mall.id);
  held.malls.set(mall.id, mall);
  if (!old) held.inOrder = undefined;
  else held.inOrder = held.inOrder?.map((store) => (store === old.collection ? mall.collection : store));
  held.changes.mark(mall.id);
  old?.catalogue.store.close();
}

/** Forgets a mall here (its records stay wherever its storage keeps them). */
export function forget(held: HeldMalls, mallId: string): void {
  const mall = held.malls.get(mallId);
  if (!mall) return;
  held.malls.delete(mallId);
  held.inOrder = undefined;
  held.changes.mark(mallId);
  mall.catalogue.store.close();
}

/** The mall over `store`, made the one of its id if it is not already (the store replaced it). */
export function over(held: HeldMalls, mallId: string, store: SandboxStore): Mall {
  const mall = held.malls.get(mallId);
  if (mall?.catalogue.store === store) return mall;
  const made = held.starts.make(mallId, store);
  install(held, made);
  return made;
}

/** How many records the malls held keep, by table. */
export function heldRecords(held: HeldMalls): Record<string, number> {
  const counts = Object.fromEntries(tableNames.map((table) => [table, 0]));
  for (const mall of held.malls.values())
    for (const table of tableNames) counts[table] = (counts[table] ?? 0) + mall.catalogue.store.size(table);
  return counts;
}

/** What a catch-up of the storage tells the held malls. */
export function catchUpHooks(held: HeldMalls): CatchUpHooks {
  return {
    adopt: (mallId) => held.malls.get(mallId) ?? over(held, mallId, held.storage.open(mallId)),
    forget: (mallId) => forget(held, mallId),
    current: (mallId, store) => over(held, mallId, store),
  };
}

/** The handler of an operation on `mall`: none for an operation the API's spec does not describe. */
export function handlerFor(
  held: HeldMalls,
  api: SandboxApi,
  operationId: string,
  mall: Mall,
): AnyHandler | undefined {
  if (held.specs[api].operation(operationId) === undefined) return undefined;
  return api === 'collection' ? held.collection.get(operationId) : mall[api].get(operationId);
}

/** The handler of a call on `mall` (any mall for a collection call); throws on misuse. */
export function handlerOf(held: HeldMalls, call: SandboxCall, mall: Mall = held.starts.sample): AnyHandler {
  const handler = handlerFor(held, call.api, call.operationId, mall);
  if (!handler) throw new Error(`the sandbox does not handle ${call.api} ${call.operationId}`);
  return handler;
}
