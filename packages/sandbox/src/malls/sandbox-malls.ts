// The sandbox malls of one process: every mall id is its own isolated mall (own records, own id
// sequences), created on first use as `newMall` says (the seeded sample mall, an empty mall or a
// named fixture), over the storage its caller opened with `@mall-api/mall-state` (memory, one
// SQLite database in a data directory, or PostgreSQL shared by replicas, which
// shared-sandbox-malls.ts answers asynchronously); this module opens no storage. Calls are routed
// to their mall (collection calls, which carry no mall, go over every mall's store) and answered
// as domain outcomes; a refusal a service throws inside its transaction is answered as a value here. Malls
// can be reset, loaded with fixtures, snapshotted, restored and dropped (the mocks drop idle malls
// and the least recently used one past their cap). A reset, fixture or restore never holds the
// process: its input is checked and the mall's next store is built off to the side in time slices
// (the mall answering from its old records meanwhile), then swapped in at once; changes to one
// mall run one at a time, in the order asked. PostgreSQL malls check and fill the next store the
// same way, and the database store writes it as the mall's next row set and swaps it in. Every
// check by the spec (fixtures, snapshots, record shapes, which operations exist) reads the spec
// models given in `specs` (the mocks pass the ones they serve); only a sandbox created without
// them, on its own, reads the shipped bundles.
import {
  type Awaitable,
  andThen,
  createMemoryStore,
  type MallStorage,
  memoryStorage,
  oneAtATime,
  type PostgresMalls,
  type SandboxStore,
  type TableName,
  tableNames,
} from '@mall-api/mall-state';
import { type ApiSpecs, loadSpecs } from '@mall-api/spec-model';
import type { MallSettings } from '../catalogue/product-service.js';
import { recordShapes } from '../catalogue/record-shapes.js';
import type {
  MallCounts,
  MallOutcome,
  MallStart,
  Refusal,
  SandboxApi,
  SandboxCall,
  SandboxMallsGateway,
  SandboxOutcome,
  StillUnused,
} from '../protocol.js';
import { callMall, refusal, refusalOf, writtenDuringLoad } from '../sandbox-result.js';
import { seedSandbox } from '../seed/seed-data.js';
import { memo } from '../support/memo.js';
import { recentValues } from '../support/recent-values.js';
import { inSlices } from '../support/time-slice.js';
import { createCollectionView, storeIdsNamed } from '../views/collection-view.js';
import { type AnyHandler, handlerTable } from '../views/handler-types.js';
import { keptOverMalls } from '../views/kept-answers.js';
import { createMallChanges } from '../views/mall-changes.js';
import { type CheckedFixture, createFixtureLoader, type RequestRules } from './fixtures.js';
import { createMall, type Mall, type MallContext } from './mall.js';
import { type MallsCore, type SharedSandboxMalls, sharedSandboxMalls } from './shared-sandbox-malls.js';
import {
  createSnapshotCheck,
  type MallSnapshot,
  restoreInSlices,
  restoreInto,
  snapshotOf,
} from './snapshot.js';

/** How to run the sandbox malls. */
export interface SandboxMallsOptions {
  /**
   * Where the malls' records are kept, opened by the caller with `@mall-api/mall-state`
   * (`openStorage`): memory (the default) or one SQLite database in a data directory that survives
   * a restart; see SharedSandboxMallsOptions for PostgreSQL. The sandbox takes it over: its `close`
   * closes it.
   */
  storage?: MallStorage;
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
  /**
   * The spec model of each API, which fixtures, snapshots and records are checked against and
   * which says the operations there are (the mocks pass the models they serve). Default, for a
   * sandbox used on its own: the shipped bundles.
   */
  specs?: ApiSpecs;
}

/** The sandbox malls of a process (the protocol's gateway, answering at once). */
export interface SandboxMalls extends SandboxMallsGateway {
  /** Whether the sandbox answers this operation (false: the mock answers from the spec's examples). */
  handles(api: SandboxApi, operationId: string): boolean;
  /**
   * Answers a call, creating its mall on first use. Throws only on misuse: an operation `handles`
   * says it does not answer, or an admin or analytics call without a mall id.
   */
  handle(call: SandboxCall): SandboxOutcome;
  /**
   * Empties a mall and starts it again as `to` says (default: as a new mall starts). Like every
   * change to a mall's data it waits for the changes to that mall asked before it.
   */
  reset(mallId: string, to?: MallStart): Promise<MallOutcome>;
  /**
   * Adds a fixture's records to a mall: all of them, or none when one is refused. An API write to
   * the mall while the fixture loads refuses it (a `conflict`: load it again).
   */
  loadFixture(mallId: string, fixture: unknown): Promise<MallOutcome>;
  /** Every record of a mall as plain JSON; undefined for a mall that does not exist (none is created). */
  snapshot(mallId: string): MallSnapshot | undefined;
  /** Replaces a mall's records with a snapshot's (checked first; a bad snapshot changes nothing). */
  restore(mallId: string, snapshot: unknown): Promise<MallOutcome>;
  /** The malls that exist, in id order. */
  mallIds(): string[];
  /**
   * Removes a mall and its records (memory and data directory); false when it did not exist, or
   * when `stillUnused` (asked first) says it was used since it was found idle.
   */
  drop(mallId: string, stillUnused?: StillUnused): Awaitable<boolean>;
  close(): void;
}

const defaultSettings: MallSettings = { globalEdition: false, ageVerification: false, shops: 1 };

/** Collection answers kept at most (each over every mall, until a mall changes). */
const collectionAnswerCapacity = 256;

/** Derived views (a mall's collection records, analytics answers) kept alive across malls. */
const viewsKept = 64;

/** Options of sandbox malls kept in a PostgreSQL database the caller opened (`openStorage({ postgres })`). */
export type SharedSandboxMallsOptions = Omit<SandboxMallsOptions, 'storage'> & {
  /** The malls of the database, shared with every replica on it (taken over: `close` closes it). */
  storage: PostgresMalls;
};

/** Whether the storage given is a shared database's (answered asynchronously). */
const isShared = (storage: MallStorage | PostgresMalls): storage is PostgresMalls => 'catchUpAll' in storage;

/** The sandbox malls over PostgreSQL, shared with every replica on the same database. */
export async function createSandboxMalls(options: SharedSandboxMallsOptions): Promise<SharedSandboxMalls>;
/** The sandbox malls of this process (and the malls a data directory already holds). */
export async function createSandboxMalls(options?: SandboxMallsOptions): Promise<SandboxMalls>;
export async function createSandboxMalls(
  options: SandboxMallsOptions | SharedSandboxMallsOptions = {},
): Promise<SandboxMalls | SharedSandboxMalls> {
  // Changes to each mall's collection data, so counts over every mall recount only changed malls.
  const changes = createMallChanges();
  const onChange = (mallId: string) => (table: TableName) => {
    if (table === 'product' || table === 'category') changes.mark(mallId);
  };
  const given = options.storage;
  const postgres = given && isShared(given) ? given : undefined;
  postgres?.observe((mallId, table) => onChange(mallId)(table));
  // Where this process keeps its malls (PostgreSQL malls are held in memory, caught up from the database).
  const storage: MallStorage = given && !isShared(given) ? given : memoryStorage();
  try {
    const specs = options.specs ?? (await loadSpecs());
    const { admin: adminModel, collection: collectionModel } = specs;
    const collectionShapes = recordShapes(collectionModel);
    const context: MallContext = {
      adminShapes: recordShapes(adminModel),
      collectionShapes,
      settings: { ...defaultSettings, ...options.mall },
      recentViews: recentValues(viewsKept),
    };
    const fixtureLoader = createFixtureLoader(adminModel, options.requestRules);
    const snapshotViolations = createSnapshotCheck(adminModel);
    const fixtures = options.fixtures ?? {};
    const newMall = options.newMall ?? { seed: 1 };
    const clockFor = options.clockFor ?? (() => Date.now);
    const malls = new Map<string, Mall>();
    const changing = oneAtATime();

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
    // The records of the sample mall of each seed, frozen (no mall can change them in place): a
    // seeded mall does not depend on its clock (the seed dates its records), so every mall of a
    // seed starts as these records, shared — much faster and smaller than seeding each one.
    const seeded = memo((seed: number): MallSnapshot => {
      const sample = createMall('sample', createMemoryStore(), clockFor('sample'), context);
      seedSandbox(seed, sample.catalogue);
      return deepFreeze(snapshotOf(sample.catalogue.store));
    });
    /** The checked records of a named fixture, or why there are none. */
    const namedFixture = async (name: string): Promise<CheckedFixture | Refusal> =>
      Object.hasOwn(fixtures, name)
        ? fixtureLoader.check(fixtures[name])
        : refusal('invalid', [
            { location: 'body', name: 'fixture', message: `there is no fixture named ${name}` },
          ]);
    /**
     * Fills the empty store of mall `mallId` as `to` says, in time slices; returns the mall over it,
     * or why it cannot start so.
     */
    const start = async (mallId: string, store: SandboxStore, to: MallStart): Promise<Mall | Refusal> => {
      if (to !== 'empty' && 'seed' in to) await restoreInSlices(store, seeded(to.seed), true);
      const mall = createMall(mallId, store, clockFor(mallId), context);
      if (to === 'empty' || 'seed' in to) return mall;
      const checked = await namedFixture(to.fixture);
      if (!checked.ok) return checked;
      const written = await fixtureLoader.write(mall.catalogue, checked);
      return written.ok ? mall : written;
    };
    /** Fills a staged store with the records of `base` and then a checked fixture's; the mall over it, or why not. */
    const withFixture = async (
      mallId: string,
      store: SandboxStore,
      base: SandboxStore,
      checked: CheckedFixture,
    ): Promise<Mall | Refusal> => {
      for (const table of tableNames)
        await inSlices(
          base.entries(table),
          ([key, record]) => store.put(table, key, record),
          (run) => store.transaction(run),
        );
      const mall = createMall(mallId, store, clockFor(mallId), context);
      const written = await fixtureLoader.write(mall.catalogue, checked);
      return written.ok ? mall : written;
    };
    /** A snapshot's fill of a staged store: checked, then its records; or what is wrong with it. */
    const restoring = async (
      mallId: string,
      snapshot: unknown,
    ): Promise<((store: SandboxStore) => Promise<Mall>) | Refusal> => {
      const violations = await snapshotViolations(snapshot);
      if (violations.length > 0) return refusal('invalid', violations);
      return async (store) => {
        await restoreInSlices(store, snapshot as MallSnapshot);
        return createMall(mallId, store, clockFor(mallId), context);
      };
    };
    /** Makes `mall` the one of its id (a new one, or the next store of an existing one). */
    const install = (mall: Mall) => {
      const old = malls.get(mall.id);
      malls.set(mall.id, mall);
      if (!old) inOrder = undefined;
      else inOrder = inOrder?.map((store) => (store === old.collection ? mall.collection : store));
      changes.mark(mall.id);
      old?.catalogue.store.close();
    };
    /**
     * Builds the next store of a mall off to the side with `fill` (and the new mall's collection
     * records, in slices too) and swaps it in when `fill` gives a mall over it and `conflict`, asked
     * just before the swap, has nothing against it; a refusal or an error discards it, and the mall
     * keeps its records.
     */
    const replace = (
      mallId: string,
      fill: (store: SandboxStore) => Promise<Mall | Refusal>,
      conflict: () => Refusal | undefined = () => undefined,
    ): Promise<MallOutcome> =>
      changing(mallId, async () => {
        const staged = storage.stage(mallId, onChange(mallId));
        let next: Mall | Refusal;
        try {
          next = await fill(staged.store);
          if (!('ok' in next)) {
            await next.collection.prepare();
            next = conflict() ?? next;
          }
        } catch (error) {
          await staged.discard();
          throw error;
        }
        if ('ok' in next) {
          await staged.discard();
          return next;
        }
        const swapped = staged.swap();
        install(next);
        await swapped;
        return { ok: true, counts: counts(next) };
      });
    // The malls' collection stores in mall-id order, kept until a mall is created or dropped.
    let inOrder: Mall['collection'][] | undefined;
    // A mall in a throwaway memory store: proves that `newMall` starts (a bad fixture fails here,
    // not on some later first call) and lists the operations every mall answers.
    const sampleStart = await start('sample', createMemoryStore(), newMall);
    if ('ok' in sampleStart)
      throw new Error(
        `new malls cannot start as configured: ${sampleStart.violations.map((v) => `${v.name} ${v.message}`).join('; ')}`,
      );
    const sample = sampleStart;
    // The records a new mall starts with when it is not seeded (checked above: writing them cannot fail).
    const checkedNew =
      typeof newMall === 'object' && 'fixture' in newMall ? await namedFixture(newMall.fixture) : undefined;
    const newFixture = checkedNew?.ok ? checkedNew : undefined;
    /** The mall over `store`, the stored records of `mallId`, made the one of its id. */
    const adopt = (mallId: string, store: SandboxStore): Mall => {
      const mall = createMall(mallId, store, clockFor(mallId), context);
      install(mall);
      return mall;
    };
    const mallOf = (mallId: string): Mall => {
      const existing = malls.get(mallId);
      if (existing) return existing;
      const store = storage.open(mallId, onChange(mallId));
      if (typeof newMall === 'object' && 'seed' in newMall)
        store.transaction(() => restoreInto(store, seeded(newMall.seed), true));
      const mall = adopt(mallId, store);
      if (newFixture) fixtureLoader.writeNow(mall.catalogue, newFixture);
      return mall;
    };
    for (const mallId of storage.mallIds()) adopt(mallId, storage.open(mallId, onChange(mallId)));
    if (!postgres) for (const mallId of options.malls ?? []) mallOf(mallId);

    // The collection's reads (every collection operation is one) keep their answers until the
    // change log moves: every change to the malls held here, a write or a catch-up, marks it.
    const keepOverMalls = keptOverMalls(changes, collectionAnswerCapacity);
    const collectionReads = handlerTable(
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
    const collection = new Map(
      [...collectionReads].map(([operationId, read]) => [operationId, keepOverMalls(operationId, read)]),
    );
    /** The handler of an operation on `mall`: none for an operation the API's spec does not describe. */
    const handlerFor = (api: SandboxApi, operationId: string, mall: Mall): AnyHandler | undefined =>
      specs[api].operation(operationId) === undefined
        ? undefined
        : api === 'collection'
          ? collection.get(operationId)
          : mall[api].get(operationId);
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
      // PostgreSQL malls fill their next store with the same fills (shared-sandbox-malls.ts); the
      // database store writes it as the mall's next row set and swaps it in.
      const core: MallsCore = {
        handles: (api, operationId) => handlerFor(api, operationId, sample) !== undefined,
        handlerOf: (call, mall) => handlerOf(call, mall ?? sample),
        mallsNamed: (call) => storeIdsNamed(call.query),
        held: (mallId) => malls.get(mallId) ?? adopt(mallId, postgres.open(mallId)),
        over(mallId, store) {
          const mall = malls.get(mallId);
          return mall?.catalogue.store === store ? mall : adopt(mallId, store);
        },
        install,
        forget: (mallId) => {
          const mall = malls.get(mallId);
          if (mall) forget(mall);
        },
        startNew(mall) {
          const { store } = mall.catalogue;
          if (typeof newMall === 'object' && 'seed' in newMall)
            restoreInto(store, seeded(newMall.seed), true);
          else mall.catalogue.placements.ensureMains();
          if (newFixture) fixtureLoader.writeNow(mall.catalogue, newFixture);
        },
        counts,
        async refill(mallId, to = newMall) {
          const checked = to !== 'empty' && 'fixture' in to ? await namedFixture(to.fixture) : undefined;
          if (checked && !checked.ok) return checked;
          return (store) => start(mallId, store, to);
        },
        checkFixture: (fixture) => fixtureLoader.check(fixture),
        fixture: (mallId, base, checked) => (store) => withFixture(mallId, store, base, checked),
        restore: restoring,
      };
      return await sharedSandboxMalls(core, postgres, options.malls ?? []);
    }

    /** A stamp of every table's revision: it differs once any write reached the store. */
    const revisionsOf = (store: SandboxStore) => tableNames.map((table) => store.revision(table)).join('|');

    return {
      handles: (api, operationId) => handlerFor(api, operationId, sample) !== undefined,
      handle(call) {
        const handler = handlerOf(call, call.api === 'collection' ? sample : mallOf(callMall(call)));
        try {
          return handler({ path: call.path, query: call.query, body: call.body });
        } catch (error) {
          const refused = refusalOf(error);
          if (refused) return refused;
          throw error;
        }
      },
      reset: (mallId, to = newMall) => replace(mallId, (store) => start(mallId, store, to)),
      loadFixture(mallId, fixture) {
        // The mall the fixture is added to, and its revisions when its records were taken.
        let base: Mall | undefined;
        let before = '';
        const changedMeanwhile = () =>
          base && (malls.get(mallId) !== base || revisionsOf(base.catalogue.store) !== before)
            ? writtenDuringLoad()
            : undefined;
        return replace(
          mallId,
          async (store) => {
            const checked = await fixtureLoader.check(fixture);
            if (!checked.ok) return checked;
            base = mallOf(mallId);
            before = revisionsOf(base.catalogue.store);
            return withFixture(mallId, store, base.catalogue.store, checked);
          },
          changedMeanwhile,
        );
      },
      snapshot(mallId) {
        const mall = malls.get(mallId);
        return mall && snapshotOf(mall.catalogue.store);
      },
      restore: (mallId, snapshot) =>
        replace(mallId, async (store) => {
          const fill = await restoring(mallId, snapshot);
          return typeof fill === 'function' ? fill(store) : fill;
        }),
      mallIds: () => [...malls.keys()].sort(),
      drop(mallId, stillUnused) {
        const mall = malls.get(mallId);
        if (!mall) return false;
        const dropNow = () => {
          forget(mall);
          storage.drop(mallId);
          return true;
        };
        // This process's roster answers at once, and the drop follows: no call on the mall runs between.
        return stillUnused ? andThen(stillUnused(), (unused) => unused && dropNow()) : dropNow();
      },
      close() {
        malls.clear();
        storage.close();
      },
    };
  } catch (error) {
    storage.close();
    await postgres?.close();
    throw error;
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
