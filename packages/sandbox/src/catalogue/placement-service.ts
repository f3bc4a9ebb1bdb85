// Where products are shown, per shop: the three sections of a category (1 regular, 2 recommended,
// 3 new; category-placements.ts) and the home page's main display groups (main-placements.ts).
// Each product's `category` and `main` attributes follow its placements.
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
