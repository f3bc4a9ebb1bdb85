// The catalogue of one mall, its services wired in dependency order (categories → product
// directory → placements → products) so none refers back to one created after it. The one
// operation spanning services, removing a category with its sub-categories and their placements,
// lives here; beside it, the mall's webhook setting.
import type { SandboxStore } from '@mall-api/mall-state';
import { createCategoryService } from './category-service.js';
import { createPlacementService } from './placement-service.js';
import { createProductDirectory } from './product-directory.js';
import { createProductService, type MallSettings } from './product-service.js';
import type { RecordShapes } from './record-shapes.js';
import { requestReferenceCheck, storeLookups } from './reference-check.js';
import { createWebhookSetting } from './webhook-setting.js';

/** Builds the catalogue over a mall's store and creates its default main groups when it has none. */
export function createCatalogue(
  store: SandboxStore,
  shapes: RecordShapes,
  clock: () => number,
  settings: MallSettings,
) {
  const categories = createCategoryService(store, shapes);
  const directory = createProductDirectory(store);
  const references = requestReferenceCheck(shapes, storeLookups(store));
  const placements = createPlacementService(store, categories, directory, references);
  const products = createProductService({
    references,
    store,
    shapes,
    directory,
    placements,
    clock,
    settings,
  });
  placements.ensureMains();
  return {
    store,
    categories,
    placements,
    products,
    /** Whether the mall's events are delivered to the app. */
    webhooks: createWebhookSetting(store),
    /** Deletes a category, its sub-categories and every placement in them; returns the numbers deleted. */
    removeCategory(categoryNo: number): number[] {
      const doomed = categories.delete(categoryNo);
      placements.forgetCategories(doomed);
      return doomed;
    },
  };
}

/** The services of one mall's catalogue (see {@link createCatalogue}). */
export type Catalogue = ReturnType<typeof createCatalogue>;
