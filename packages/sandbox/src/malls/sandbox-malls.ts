// The sandbox malls of one process: every mall id is its own isolated mall (own records, own id
// sequences), created on first use as `newMall` says (the seeded sample mall, an empty mall or a
// named fixture), kept in memory, in one SQLite database in a data directory, or in PostgreSQL
// shared by replicas (shared-sandbox-malls.ts answers those, asynchronously). Calls are routed
// to their mall (collection calls, which carry no mall, go over every mall's store) and answered
// as values; a refusal a service throws inside its transaction becomes a `refusal` here. Malls
// can be reset, loaded with fixtures, snapshotted, restored and dropped (the mocks drop idle malls
// and the least recently used one past their cap).
import { loadSpec } from '@mall-api/spec-model';
import type { MallSettings } from '../catalogue/product-service.js';
import { recordShapes } from '../catalogue/record-shapes.js';
import { DomainRefusal } from '../catalogue/refusal.js';
import { callMall, type SandboxApi, type SandboxCall, type SandboxResult } from '../sandbox-result.js';
import { seedSandbox } from '../seed/seed-data.js';
import { openPostgresMalls } from '../store/postgres-malls.js';
import { openSqliteMalls, type SqliteMalls } from '../store/sqlite-store.js';
import { createMemoryStore, type SandboxStore, type TableName } from '../store/store.js';
import { createCollectionView } from '../views/collection-view.js';
import { type AnyHandler, handlerTable } from '../views/handler-types.js';
import { createMallChanges } from '../views/mall-changes.js';
import { createFixtureLoader, type RequestRules } from './fixtures.js';
import { createMall, type Mall, type MallContext } from './mall.js';
import { type MallCounts, type MallOutcome, type RefusedChange, refusedChange } from './mall-outcome.js';
import { type MallsCore, type SharedSandboxMalls, sharedSandboxMalls } from './shared-sandbox-malls.js';
import { clearStore, createSnapshotCheck, type MallSnapshot, restoreInto, snapshotOf } from './snapshot.js';

/** What a new or reset mall starts with. */
export type MallStart = { readonly seed: number } | 'empty' | { readonly fixture: string };

/** How to run the sandbox malls. */
export interface SandboxMallsOptions {
  /**
   * `memory` (default) or one SQLite database in `dataDir` that survives a restart (one process per
   * directory); see SharedSandboxMallsOptions for PostgreSQL.
   */
  store?: 'memory' | { dataDir: string };
  /** What a mall starts with when first used (default: the seeded sample mall of seed 1). */
  newMall?: MallStart;
  /** Named fixtures a mall can start with or be reset to (see the README for the format). */
  fixtures?: Readonly<Record<string, unknown>>;
  /** Mall settings the product rules depend on (default: one domestic shop without age verification). */
  mall?: Partial<MallSettings>;
  /** The clock of each mall: created and updated dates (and so the days analytics show products on). */
  clockFor?: (mallId: string) => () => number;
  /** Malls created at start, before any call (a collection call sees only malls that exist). */
  malls?: readonly string[];
  /** The front layer's rules about request bodies beyond their schema, applied to fixtures too. */
  requestRules?: RequestRules;
}

/** The sandbox malls of a process. */
export interface SandboxMalls {
  /** Whether the sandbox answers this operation (false: the mock answers from the spec's examples). */
  handles(api: SandboxApi, operationId: string): boolean;
  /**
   * Answers a call, creating its mall on first use. Throws only on misuse: an operation `handles`
   * says it does not answer, or an admin or analytics call without a mall id.
   */
  handle(call: SandboxCall): SandboxResult;
  /** Empties a mall and starts it again as `to` says (default: as a new mall starts). */
  reset(mallId: string, to?: MallStart): MallOutcome;
  /** Adds a fixture's records to a mall: all of them, or none when one is refused. */
  loadFixture(mallId: string, fixture: unknown): MallOutcome;
  /** Every record of a mall as plain JSON; undefined for a mall that does not exist (none is created). */
  snapshot(mallId: string): MallSnapshot | undefined;
  /** Replaces a mall's records with a snapshot's (checked first; a bad snapshot changes nothing). */
  restore(mallId: string, snapshot: unknown): MallOutcome;
  /** The malls that exist, in id order. */
  mallIds(): string[];
  /** Removes a mall and its records (memory and data directory); false when it did not exist. */
  drop(mallId: string): boolean;
  close(): void;
}

const defaultSettings: MallSettings = { globalEdition: false, ageVerification: false, shops: 1 };

/** Options of sandbox malls kept in the PostgreSQL database at `store.postgres` (a `postgres://` URL). */
export type SharedSandboxMallsOptions = Omit<SandboxMallsOptions, 'store'> & {
  store: { postgres: string };
  /** Where an outage of the database and its end are reported, once each (default: standard error). */
  log?: (message: string) => void;
};

/** Opens the sandbox malls in PostgreSQL, shared with every replica on the same database. */
export async function createSandboxMalls(options: SharedSandboxMallsOptions): Promise<SharedSandboxMalls>;
/** Opens the sandbox malls of this process (and the malls a data directory already holds). */
export async function createSandboxMalls(options?: SandboxMallsOptions): Promise<SandboxMalls>;
export async function createSandboxMalls(
  options: SandboxMallsOptions | SharedSandboxMallsOptions = {},
): Promise<SandboxMalls | SharedSandboxMalls> {
  const postgres =
    typeof options.store === 'object' && 'postgres' in options.store
      ? await openPostgresMalls(
          options.store.postgres,
          'log' in options && options.log ? { log: options.log } : {},
        )
      : undefined;
  const database: SqliteMalls | undefined =
    typeof options.store === 'object' && 'dataDir' in options.store
      ? await openSqliteMalls(options.store.dataDir)
      : undefined;
  try {
    const [adminModel, collectionModel] = await Promise.all([loadSpec('admin'), loadSpec('collection')]);
    const collectionShapes = recordShapes(collectionModel);
    const context: MallContext = {
      adminShapes: recordShapes(adminModel),
      collectionTemplate: collectionShapes.template('ProductsPage'),
      settings: { ...defaultSettings, ...options.mall },
    };
    const loadFixture = createFixtureLoader(adminModel, options.requestRules);
    const snapshotViolations = createSnapshotCheck(adminModel);
    const fixtures = options.fixtures ?? {};
    const newMall = options.newMall ?? { seed: 1 };
    const clockFor = options.clockFor ?? (() => Date.now);
    const malls = new Map<string, Mall>();
    // Changes to each mall's collection data, so counts over every mall recount only changed malls.
    const changes = createMallChanges();
    const onChange = (mallId: string) => (table: TableName) => {
      if (table === 'product' || table === 'category') changes.mark(mallId);
    };
    const openStore = (mallId: string): SandboxStore =>
      postgres?.open(mallId, onChange(mallId)) ??
      database?.open(mallId, onChange(mallId)) ??
      createMemoryStore(undefined, [], onChange(mallId));

    const counts = (mall: Mall): MallCounts => {
      const products = mall.catalogue.products.all();
      const { store } = mall.catalogue;
      return {
        categories: store.size('category'),
        products: products.filter((p) => !p.bundle).length,
        bundles: products.filter((p) => p.bundle).length,
        placements: store.size('categoryPlacement') + store.size('mainPlacement'),
      };
    };
    /** Fills an empty mall as `start` says. */
    const start = (mall: Mall, to: MallStart): MallOutcome => {
      if (to === 'empty') return { ok: true, counts: counts(mall) };
      if ('seed' in to) {
        seedSandbox(to.seed, mall.catalogue);
        return { ok: true, counts: counts(mall) };
      }
      if (!Object.hasOwn(fixtures, to.fixture))
        return refusedChange([
          { location: 'body', name: 'fixture', message: `there is no fixture named ${to.fixture}` },
        ]);
      const loaded = loadFixture(mall.catalogue, fixtures[to.fixture]);
      return loaded.ok ? { ok: true, counts: counts(mall) } : loaded;
    };
    // The malls' collection stores in mall-id order, kept until a mall is created or dropped.
    let inOrder: Mall['collection'][] | undefined;
    const build = (mallId: string) => {
      const mall = createMall(mallId, openStore(mallId), clockFor(mallId), context);
      malls.set(mallId, mall);
      inOrder = undefined;
      changes.mark(mallId);
      return mall;
    };
    // A mall in a throwaway memory store: proves that `newMall` starts (a bad fixture fails here,
    // not on some later first call) and lists the operations every mall answers.
    const sample = createMall('sample', createMemoryStore(), clockFor('sample'), context);
    const sampleStart = start(sample, newMall);
    if (!sampleStart.ok)
      throw new Error(
        `new malls cannot start as configured: ${sampleStart.violations.map((v) => `${v.name} ${v.message}`).join('; ')}`,
      );
    // A seeded mall does not depend on its clock (the seed dates its records), so every new mall
    // of a seed starts as the sample's records, shared (frozen, so no mall can change them in
    // place): much faster and smaller than seeding each one.
    const seeded =
      typeof newMall === 'object' && 'seed' in newMall
        ? deepFreeze(snapshotOf(sample.catalogue.store))
        : undefined;
    /** Empties a mall and fills it as `to` says (inside the caller's transaction). */
    const refill = (mall: Mall, to: MallStart): MallOutcome => {
      clearStore(mall.catalogue.store);
      mall.catalogue.placements.ensureMains();
      return start(mall, to);
    };
    /** Fills a new mall as `newMall` says (inside the caller's transaction). */
    const startNew = (mall: Mall): void => {
      if (seeded) restoreInto(mall.catalogue.store, seeded, true);
      else refill(mall, newMall);
    };
    const mallOf = (mallId: string): Mall => {
      const existing = malls.get(mallId);
      if (existing) return existing;
      const mall = build(mallId);
      mall.catalogue.store.transaction(() => startNew(mall));
      return mall;
    };
    for (const mallId of database?.mallIds() ?? []) build(mallId);
    if (!postgres) for (const mallId of options.malls ?? []) mallOf(mallId);

    const collection = handlerTable(
      createCollectionView(
        () => {
          inOrder ??= [...malls.values()]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((mall) => mall.collection);
          return inOrder;
        },
        collectionShapes,
        { changes, storeOf: (mallId) => malls.get(mallId)?.collection },
      ),
    );
    const handlerFor = (api: SandboxApi, operationId: string, mall: Mall): AnyHandler | undefined =>
      api === 'collection' ? collection.get(operationId) : mall[api].get(operationId);
    /** The handler of a call on `mall` (any mall for a collection call); throws on misuse. */
    const handlerOf = (call: SandboxCall, mall: Mall): AnyHandler => {
      const handler = handlerFor(call.api, call.operationId, mall);
      if (!handler) throw new Error(`the sandbox does not handle ${call.api} ${call.operationId}`);
      return handler;
    };
    /** Forgets a mall here (its records stay wherever its store keeps them). */
    const forget = (mall: Mall) => {
      malls.delete(mall.id);
      inOrder = undefined;
      changes.mark(mall.id);
      mall.catalogue.store.close();
    };

    if (postgres) {
      const core: MallsCore = {
        handles: (api, operationId) => handlerFor(api, operationId, sample) !== undefined,
        handlerOf: (call, mall) => handlerOf(call, mall ?? sample),
        held: (mallId) => malls.get(mallId) ?? build(mallId),
        forget: (mallId) => {
          const mall = malls.get(mallId);
          if (mall) forget(mall);
        },
        startNew,
        refill: (mall, to = newMall) => refill(mall, to),
        loadFixture: (mall, fixture) => {
          const loaded = loadFixture(mall.catalogue, fixture);
          return loaded.ok ? { ok: true, counts: counts(mall) } : loaded;
        },
        snapshotViolations,
        restore: (mall, snapshot) => {
          restoreInto(mall.catalogue.store, snapshot);
          return { ok: true, counts: counts(mall) };
        },
      };
      return await sharedSandboxMalls(core, postgres, options.malls ?? []);
    }

    /** Runs `work` on the mall inside its store's transaction; a refusal undoes it and is answered. */
    const inTransaction = (mall: Mall, work: () => MallOutcome): MallOutcome => {
      try {
        return mall.catalogue.store.transaction(() => {
          const outcome = work();
          if (!outcome.ok) throw new UndoChange(outcome);
          return outcome;
        });
      } catch (error) {
        if (error instanceof UndoChange) return error.refusal;
        throw error;
      }
    };

    return {
      handles: (api, operationId) => handlerFor(api, operationId, sample) !== undefined,
      handle(call) {
        const handler = handlerOf(call, call.api === 'collection' ? sample : mallOf(callMall(call)));
        try {
          return handler({ path: call.path, query: call.query, body: call.body });
        } catch (error) {
          if (error instanceof DomainRefusal) return error.toResult();
          throw error;
        }
      },
      reset(mallId, to = newMall) {
        const mall = mallOf(mallId);
        return inTransaction(mall, () => refill(mall, to));
      },
      loadFixture(mallId, fixture) {
        const mall = mallOf(mallId);
        const loaded = loadFixture(mall.catalogue, fixture);
        return loaded.ok ? { ok: true, counts: counts(mall) } : loaded;
      },
      snapshot(mallId) {
        const mall = malls.get(mallId);
        return mall && snapshotOf(mall.catalogue.store);
      },
      restore(mallId, snapshot) {
        const violations = snapshotViolations(snapshot);
        if (violations.length > 0) return refusedChange(violations);
        const mall = mallOf(mallId);
        return inTransaction(mall, () => {
          restoreInto(mall.catalogue.store, snapshot as MallSnapshot);
          return { ok: true, counts: counts(mall) };
        });
      },
      mallIds: () => [...malls.keys()].sort(),
      drop(mallId) {
        const mall = malls.get(mallId);
        if (!mall) return false;
        forget(mall);
        database?.drop(mallId);
        return true;
      },
      close() {
        malls.clear();
        database?.close();
      },
    };
  } catch (error) {
    database?.close();
    await postgres?.close();
    throw error;
  }
}

/** A change refused part-way: thrown inside the transaction so its writes are undone. */
class UndoChange extends Error {
  constructor(readonly refusal: RefusedChange) {
    super(refusal.message);
  }
}

/** Freezes a value and everything in it (the shared records of new seeded malls). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
