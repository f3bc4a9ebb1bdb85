// The catalogue of one mall, its services wired in dependency order (categories → product
// directory → placements → products) so none refers back to one created after it. The one
// operation spanning services, removing a category with its sub-categories and their placements,
// lives here; beside it, the mall's webhook setting.
import type { SandboxStore } from '@mall-api/mall-state';
import { type CategoryService, createCategoryService } from './category-service.js';
import { createPlacementService, type PlacementService } from './placement-service.js';
import { createProductDirectory } from './product-directory.js';
import { createProductService, type MallSettings, type ProductService } from './product-service.js';
import type { RecordShapes } from './record-shapes.js';
import { requestReferenceCheck, storeLookups } from './reference-check.js';
import { createWebhookSetting, type WebhookSetting } from './webhook-setting.js';

/** The services of one mall's catalogue. */
export interface Catalogue {
  readonly store: SandboxStore;
  readonly categories: CategoryService;
  readonly placements: PlacementService;
  readonly products: ProductService;
  /** Whether the mall's events are delivered to the app. */
  readonly webhooks: WebhookSetting;
  /** Deletes a category, its sub-categories and every placement in them; returns the numbers deleted. */
  removeCategory(categoryNo: number): number[];
}

/** Builds the catalogue over a mall's store and creates its default main groups when it has none. */
export function createCatalogue(
  store: SandboxStore,
  shapes: RecordShapes,
  clock: () => number,
  settings: MallSettings,
): Catalogue {
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
    webhooks: createWebhookSetting(store),
    removeCategory(categoryNo) {
      const doomed = categories.delete(categoryNo);
      placements.forgetCategories(doomed);
      return doomed;
    },
  };
}
