// How a sandbox mall is built and filled: a new mall as `newMall` says, and the fills of a mall's
// next store for a reset, fixture or restore — each checked first, then written in time slices so no
// fill holds the process. Each seed's sample records are made once and shared, frozen. Where stores
// live and when a fill is swapped in is sandbox-malls.ts's.
import { createMemoryStore, type SandboxStore, tableNames } from '@mall-api/mall-state';
import { type ApiSpecs, webhookDeliveryOf } from '@mall-api/spec-model';
import type { MallSettings } from '../catalogue/product-service.js';
import { recordShapes } from '../catalogue/record-shapes.js';
import { eventSourcesOf } from '../events/event-sources.js';
import type { MallCounts, MallStart, Refusal } from '../protocol.js';
import { bodyViolation, refusal } from '../sandbox-result.js';
import { seedSandbox } from '../seed/seed-data.js';
import { memo } from '../support/memo.js';
import { recentValues } from '../support/recent-values.js';
import { inSlices } from '../support/time-slice.js';
import { type CheckedFixture, createFixtureLoader, type RequestRules } from './fixtures.js';
import { createMall, type Mall, type MallContext } from './mall.js';
import {
  createSnapshotCheck,
  type MallSnapshot,
  restoreInSlices,
  restoreInto,
  snapshotOf,
} from './snapshot.js';

/** Fills a mall's staged (empty) store, in time slices: the mall over it, or why it cannot be. */
export type MallFill = (store: SandboxStore) => Promise<Mall | Refusal>;

/** Derived views (a mall's collection records, analytics answers) kept alive across malls. */
const viewsKept = 64;

/** Seeds whose sample records are kept for the next mall of that seed (under 1 MiB each). */
const seedsKept = 8;

/** Mall settings when the options name none: one domestic shop without age verification. */
const defaultSettings: MallSettings = { globalEdition: false, ageVerification: false, shops: 1 };

/** How a sandbox's malls start. */
export interface MallStartsOptions {
  /** What a mall starts with when first used (default: the seeded sample mall of seed 1). */
  newMall?: MallStart;
  /** Named fixtures a mall can start with or be reset to (see the README for the format). */
  fixtures?: Readonly<Record<string, unknown>>;
  /** Mall settings the product rules depend on (default: one domestic shop without age verification). */
  mall?: Partial<MallSettings>;
  /** The clock of each mall: created and updated dates (and so the days analytics show products on). */
  clockFor?: (mallId: string) => () => number;
  /** The front layer's rules about request bodies beyond their schema, applied to fixtures too. */
  requestRules?: RequestRules;
}

/** The malls of one sandbox (as `options` say), built and filled; throws when `newMall` cannot start. */
export async function createMallStarts(specs: ApiSpecs, options: MallStartsOptions) {
  const { newMall = { seed: 1 }, fixtures = {}, clockFor = () => Date.now } = options;
  const context: MallContext = {
    adminShapes: recordShapes(specs.admin),
    collectionShapes: recordShapes(specs.collection),
    settings: { ...defaultSettings, ...options.mall },
    recentViews: recentValues(viewsKept),
    eventSources: eventSourcesOf(specs.admin),
    deliveryPolicy: webhookDeliveryOf(specs.admin.document),
  };
  const loader = createFixtureLoader(specs.admin, options.requestRules);
  const snapshotViolations = createSnapshotCheck(specs.admin);
  /** The mall `mallId` over `store`. */
  const make = (mallId: string, store: SandboxStore) => createMall(mallId, store, clockFor(mallId), context);
  // The records of the sample mall of each seed, frozen (no mall can change them in place): a
  // seeded mall does not depend on its clock (the seed dates its records), so every mall of a
  // seed starts as these records, shared — much faster and smaller than seeding each one. Seeds
  // are the testers' to pick, so only the latest few seeds' records are kept.
  const seeded = memo((seed: number): MallSnapshot => {
    const sample = make('sample', createMemoryStore());
    seedSandbox(seed, sample.catalogue);
    return deepFreeze(snapshotOf(sample.catalogue.store));
  }, seedsKept);
  /** The checked records of a named fixture, or why there are none. */
  const namedFixture = async (name: string): Promise<CheckedFixture | Refusal> =>
    Object.hasOwn(fixtures, name)
      ? loader.check(fixtures[name])
      : refusal('invalid', [bodyViolation('fixture', `there is no fixture named ${name}`)]);
  /** Fills the empty store of `mallId` as `to` says, in time slices. */
  const start = async (mallId: string, store: SandboxStore, to: MallStart): Promise<Mall | Refusal> => {
    if (to !== 'empty' && 'seed' in to) await restoreInSlices(store, seeded(to.seed), true);
    const mall = make(mallId, store);
    if (to === 'empty' || 'seed' in to) return mall;
    const checked = await namedFixture(to.fixture);
    if (!checked.ok) return checked;
    return (await loader.write(mall.catalogue, checked)) ?? mall;
  };
  // A mall in a throwaway memory store: proves that `newMall` starts (a bad fixture fails here,
  // not on some later first call) and lists the operations every mall answers.
  const sample = await start('sample', createMemoryStore(), newMall);
  if ('ok' in sample)
    throw new Error(
      `new malls cannot start as configured: ${sample.violations.map((v) => `${v.name} ${v.message}`).join('; ')}`,
    );
  // The records a new mall starts with when it is not seeded (checked above: writing them cannot fail).
  const checkedNew =
    typeof newMall === 'object' && 'fixture' in newMall ? await namedFixture(newMall.fixture) : undefined;
  const newFixture = checkedNew?.ok ? checkedNew : undefined;

  return {
    sample,
    make,
    /** Fills a new mall (inside the transaction that creates it). */
    startNew(mall: Mall): void {
      const { store } = mall.catalogue;
      if (typeof newMall === 'object' && 'seed' in newMall) restoreInto(store, seeded(newMall.seed), true);
      else mall.catalogue.placements.ensureMains();
      if (newFixture) loader.writeNow(mall.catalogue, newFixture);
    },
    /** The fill of a reset to `to` (by default as a new mall starts); or why it cannot be. */
    async refill(mallId: string, to: MallStart = newMall): Promise<MallFill | Refusal> {
      const checked = to !== 'empty' && 'fixture' in to ? await namedFixture(to.fixture) : undefined;
      if (checked && !checked.ok) return checked;
      return (store) => start(mallId, store, to);
    },
    checkFixture: (fixture: unknown) => loader.check(fixture),
    /** The fill of a checked fixture added to the records of `base`. */
    fixture:
      (mallId: string, base: SandboxStore, checked: CheckedFixture): MallFill =>
      async (store) => {
        for (const table of tableNames)
          await inSlices(
            base.entries(table),
            ([key, record]) => store.put(table, key, record),
            (run) => store.transaction(run),
          );
        const mall = make(mallId, store);
        return (await loader.write(mall.catalogue, checked)) ?? mall;
      },
    /** The fill of a snapshot's records; or what is wrong with the snapshot. */
    async restore(mallId: string, snapshot: unknown): Promise<MallFill | Refusal> {
      const violations = await snapshotViolations(snapshot);
      if (violations.length > 0) return refusal('invalid', violations);
      return async (store) => {
        await restoreInSlices(store, snapshot as MallSnapshot);
        return make(mallId, store);
      };
    },
  };
}

/** The starts of a sandbox's malls. */
export type MallStarts = Awaited<ReturnType<typeof createMallStarts>>;

/** What a mall holds (placements: every section and main-group entry). */
export function countsOf(mall: Mall): MallCounts {
  const products = mall.catalogue.products.all();
  const { store } = mall.catalogue;
  return {
    categories: store.size('category'),
    products: products.filter((p) => !p.bundle).length,
    bundles: products.filter((p) => p.bundle).length,
    placements: store.size('categoryPlacement') + store.size('mainPlacement'),
  };
}

/** Freezes a value and everything in it (the shared records of new seeded malls). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
