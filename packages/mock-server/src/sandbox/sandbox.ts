// One sandbox mall shared by the mock APIs of a process: its store (memory, or SQLite in a data
// directory), the services over it, the optional seed data, and the handlers each API answers
// from it (admin: the resources; collection and analytics: views over the same products). The
// front layer asks `handlerFor(api, operationId)`; operations without one keep their prepared
// responses.

import { loadSpec } from '@mall-api/spec-model';
import type { ApiName } from '../api-profiles.js';
import { createAdminHandlers } from './admin-handlers.js';
import { createAnalyticsHandlers } from './analytics-view.js';
import { createCategoryService } from './category-service.js';
import { createCollectionHandlers } from './collection-view.js';
import type { SandboxHandler, SandboxHandlers } from './handler-types.js';
import { createPlacementService, type PlacementService } from './placement-service.js';
import { createProductService, type MallSettings } from './product-service.js';
import { type RecordShapes, recordShapes } from './record-shapes.js';
import { seedSandbox } from './seed-data.js';
import { createSqliteStore } from './sqlite-store.js';
import { createMemoryStore, type SandboxStore } from './store.js';

/** How to run the sandbox (the `sandbox` option of startMockServer / startMockServers). */
export interface SandboxOptions {
  /** `memory` (default) or SQLite files in `dataDir`, kept across restarts. */
  store?: 'memory' | { dataDir: string };
  /** Fill an empty store with the deterministic sample mall of this seed. */
  seed?: number;
  /** Mall settings the product rules depend on (default: one domestic shop without age verification). */
  mall?: Partial<MallSettings>;
  /** Clock for created and updated dates (tests pass a fixed one). */
  clock?: () => number;
}

/** A running sandbox. */
export interface Sandbox {
  readonly store: SandboxStore;
  /** The sandbox handler of an operation, if it has one. */
  handlerFor(api: ApiName, operationId: string): SandboxHandler | undefined;
  close(): void;
}

/** The collection product record the sandbox's products are dressed in (the spec's first example). */
function collectionTemplate(shapes: RecordShapes): Record<string, unknown> {
  return shapes.template('ProductsPage');
}

/** Opens the store, builds the services and, when asked, seeds the sample mall. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const store =
    options.store === undefined || options.store === 'memory'
      ? createMemoryStore()
      : createSqliteStore(options.store.dataDir);
  try {
    const { document } = await loadSpec('admin');
    const shapes = recordShapes(document);
    const collectionShapes = recordShapes((await loadSpec('collection')).document);
    const clock = options.clock ?? Date.now;
    let placements: PlacementService | undefined;
    const categories = createCategoryService(store, shapes, (doomed) => placements?.forgetCategories(doomed));
    const products = createProductService(
      store,
      shapes,
      categories,
      () => placements as PlacementService,
      clock,
      { globalEdition: false, ageVerification: false, shops: 1, ...options.mall },
    );
    placements = createPlacementService(store, categories, products);
    placements.ensureMains();
    const services = { store, categories, products, placements };
    if (options.seed !== undefined) seedSandbox(options.seed, services);
    const handlers: Record<ApiName, SandboxHandlers> = {
      admin: createAdminHandlers(services),
      collection: createCollectionHandlers(store, products, categories, collectionTemplate(collectionShapes)),
      analytics: createAnalyticsHandlers(store, products, categories),
    };
    return {
      store,
      handlerFor: (api, operationId) => handlers[api][operationId],
      close: () => store.close(),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
