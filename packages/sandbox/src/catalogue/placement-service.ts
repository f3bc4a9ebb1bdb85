// Where products are shown: the three sections of a category (1 regular, 2 recommended, 3 new) and
// the main display groups of the home page, each with its order, per shop. Placing needs an existing
// category or group and products the add request may name (reference-check.ts); a product in
// section 2 or 3 is also in 1, leaving 1 leaves all three, and one not on display is not shown in 2
// and 3. Each product's `category` and `main` follow its placements. The sections are
// category-placements.ts's, the groups main-placements.ts's; this composes them.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
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
import type { AddOutcome, Placements } from './placement-context.js';
import type { ProductDirectory } from './product-directory.js';
import type { RequestReferenceCheck } from './reference-check.js';

export interface PlacementService {
  /**
   * The products placed in a category's section by shop `shopNo` (default 1), as listed: ordered,
   * without undisplayed products in sections 2 and 3.
   */
  listCategoryProducts(categoryNo: number, group: number, shopNo?: number): StoredRecord[];
  addToCategory(shopNo: number, categoryNo: number, group: number, productNos: readonly number[]): AddOutcome;
  updateCategoryPlacement(
    shopNo: number,
    categoryNo: number,
    group: number,
    productNo: number,
    changes: { sequence?: number; auto_sort?: string; fixed_sort?: string },
  ): StoredRecord;
  removeFromCategory(shopNo: number, categoryNo: number, productNo: number, group: number): void;
  /** Removes every placement in the given categories (they are being deleted). */
  forgetCategories(categoryNos: readonly number[]): void;
  /** Removes every placement of a product in every shop (it is being deleted). */
  forgetProduct(productNo: number): void;
  mains(): StoredRecord[];
  /** The products of a main group placed by shop `shopNo` (default 1). */
  listMainProducts(group: number, shopNo?: number): StoredRecord[];
  addToMain(shopNo: number, group: number, productNos: readonly number[]): AddOutcome;
  reorderMain(shopNo: number, group: number, productNos: readonly number[], fixed: readonly number[]): void;
  removeFromMain(shopNo: number, group: number, productNo: number): void;
  /** Creates the default main groups when the store has none. */
  ensureMains(): void;
}

/** The placements of one mall over its store, categories and products. */
export function createPlacementService(
  store: SandboxStore,
  categories: CategoryService,
  products: ProductDirectory,
  references: RequestReferenceCheck,
): PlacementService {
  const p: Placements = { store, categories, products, references };
  return {
    listCategoryProducts: (categoryNo, group, shopNo) => listCategoryProducts(p, categoryNo, group, shopNo),
    addToCategory: (shopNo, categoryNo, group, productNos) =>
      addToCategory(p, shopNo, categoryNo, group, productNos),
    updateCategoryPlacement: (shopNo, categoryNo, group, productNo, changes) =>
      updateCategoryPlacement(p, shopNo, categoryNo, group, productNo, changes),
    removeFromCategory: (shopNo, categoryNo, productNo, group) =>
      removeFromCategory(p, shopNo, categoryNo, productNo, group),
    forgetCategories: (categoryNos) => forgetCategories(p, categoryNos),
    forgetProduct(productNo) {
      forgetProductInCategories(p, productNo);
      forgetProductInMains(p, productNo);
    },
    mains: () => store.all<StoredRecord>('main'),
    listMainProducts: (group, shopNo) => listMainProducts(p, group, shopNo),
    addToMain: (shopNo, group, productNos) => addToMain(p, shopNo, group, productNos),
    reorderMain: (shopNo, group, productNos, fixed) => reorderMain(p, shopNo, group, productNos, fixed),
    removeFromMain: (shopNo, group, productNo) => removeFromMain(p, shopNo, group, productNo),
    ensureMains: () => ensureMains(p),
  };
}
