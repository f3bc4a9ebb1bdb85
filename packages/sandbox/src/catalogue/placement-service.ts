// Where products are shown: the three sections of a category (1 regular, 2 recommended, 3 new) and
// the main display groups of the home page, each with its order, per shop. Placing needs an existing
// category or group and products the add request may name (reference-check.ts); a product in
// section 2 or 3 is also in 1, leaving 1 leaves all three, and one not on display is not shown in 2
// and 3. Each product's `category` and `main` follow its placements. The sections are
// category-placements.ts's, the groups main-placements.ts's; this composes them.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import { boundTo } from '../support/bound.js';
import {
  addToCategory,
  forgetCategories,
  forgetProductInCategories,
  listCategoryProducts,
  removeFromCategory,
  updateCategoryPlacement,
} from './category-placements.js';
import type { CategoryService } from './category-service.js';
import {
  addToMain,
  ensureMains,
  forgetProductInMains,
  listMainProducts,
  removeFromMain,
  reorderMain,
} from './main-placements.js';
import type { Placements } from './placement-context.js';
import type { ProductDirectory } from './product-directory.js';
import type { RequestReferenceCheck } from './reference-check.js';

/** The placements of one mall: the section and main-group functions bound to its store and services. */
export function createPlacementService(
  store: SandboxStore,
  categories: CategoryService,
  products: ProductDirectory,
  references: RequestReferenceCheck,
) {
  const p: Placements = { store, categories, products, references };
  const bound = boundTo(p);
  return {
    listCategoryProducts: bound(listCategoryProducts),
    addToCategory: bound(addToCategory),
    updateCategoryPlacement: bound(updateCategoryPlacement),
    removeFromCategory: bound(removeFromCategory),
    forgetCategories: bound(forgetCategories),
    /** Removes every placement of a product in every shop (it is being deleted). */
    forgetProduct(productNo: number): void {
      forgetProductInCategories(p, productNo);
      forgetProductInMains(p, productNo);
    },
    mains: () => store.all<StoredRecord>('main'),
    listMainProducts: bound(listMainProducts),
    addToMain: bound(addToMain),
    reorderMain: bound(reorderMain),
    removeFromMain: bound(removeFromMain),
    ensureMains: bound(ensureMains),
  };
}

/** The placements of one mall (see {@link createPlacementService}). */
export type PlacementService = ReturnType<typeof createPlacementService>;
