// Where products are shown: the three sections of a category (1 regular, 2 recommended, 3 new)
// with their order (`sequence_no`, fixed positions) and the main display groups of the home page
// with their order and pinned products. Placing needs an existing category (or group) and
// product; a product in section 2 or 3 is also in section 1, and leaving section 1 leaves all
// three; a product whose `display` is F is not shown in sections 2 and 3. Each product's
// `category` and `main` attributes are kept in step with its placements.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import type { CategoryService } from './category-service.js';
import type { ProductDirectory } from './product-directory.js';
import { invalidField, notFound } from './refusal.js';

interface CategoryPlacement extends StoredRecord {
  shop_no: number;
  category_no: number;
  display_group: number;
  product_no: number;
  sequence_no: number;
  auto_sort: boolean;
  fixed_sort: boolean;
}

interface MainPlacement extends StoredRecord {
  shop_no: number;
  display_group: number;
  product_no: number;
  rank: number;
  fixed_sort: boolean;
}

/** The outcome of adding several products: the ones added and a violation per refused item. */
export interface AddOutcome {
  added: number[];
  refused: { index: number; productNo: number }[];
}

/** The main display groups a new sandbox starts with (the spec's example groups). */
export const defaultMainGroups = [
  { display_group: 2, group_name: 'Weekly Best', module_code: 'product_listmain_1', soldout_sort_type: 'B' },
  { display_group: 3, group_name: 'New Arrivals', module_code: 'product_listmain_2', soldout_sort_type: 'N' },
  { display_group: 4, group_name: 'Recommended', module_code: 'product_listmain_3', soldout_sort_type: 'B' },
] as const;

const placementKey = (categoryNo: number, group: number, productNo: number) =>
  `${categoryNo}:${group}:${productNo}`;
const mainKey = (group: number, productNo: number) => `${group}:${productNo}`;

export interface PlacementService {
  categoryPlacements(categoryNo: number, group: number): CategoryPlacement[];
  /** The section as listed: ordered, without undisplayed products in sections 2 and 3. */
  listCategoryProducts(categoryNo: number, group: number): StoredRecord[];
  addToCategory(shopNo: number, categoryNo: number, group: number, productNos: readonly number[]): AddOutcome;
  updateCategoryPlacement(
    shopNo: number,
    categoryNo: number,
    group: number,
    productNo: number,
    changes: { sequence?: number; auto_sort?: string; fixed_sort?: string },
  ): StoredRecord;
  removeFromCategory(categoryNo: number, productNo: number, group: number): void;
  /** Removes every placement in the given categories (they are being deleted). */
  forgetCategories(categoryNos: readonly number[]): void;
  /** Removes every placement of a product (it is being deleted). */
  forgetProduct(productNo: number): void;
  /** The categories of a product, as its `category` attribute lists them. */
  productCategories(productNo: number): { category_no: number; recommend: string; new: string }[];
  mains(): StoredRecord[];
  listMainProducts(group: number): StoredRecord[];
  addToMain(shopNo: number, group: number, productNos: readonly number[]): AddOutcome;
  reorderMain(group: number, productNos: readonly number[], fixed: readonly number[]): void;
  removeFromMain(group: number, productNo: number): void;
  /** Creates the default main groups when the store has none. */
  ensureMains(): void;
}

export function createPlacementService(
  store: SandboxStore,
  categories: CategoryService,
  products: ProductDirectory,
): PlacementService {
  const placementsOf = (categoryNo: number, group: number) =>
    store
      .all<CategoryPlacement>('categoryPlacement')
      .filter((p) => p.category_no === categoryNo && p.display_group === group)
      .sort((a, b) => a.sequence_no - b.sequence_no);
  const placementsOfProduct = (productNo: number) =>
    store.all<CategoryPlacement>('categoryPlacement').filter((p) => p.product_no === productNo);

  const productCategories = (productNo: number) => {
    const byCategory = new Map<number, Set<number>>();
    for (const p of placementsOfProduct(productNo)) {
      const groups = byCategory.get(p.category_no) ?? new Set<number>();
      groups.add(p.display_group);
      byCategory.set(p.category_no, groups);
    }
    return [...byCategory].map(([category_no, groups]) => ({
      category_no,
      recommend: groups.has(2) ? 'T' : 'F',
      new: groups.has(3) ? 'T' : 'F',
    }));
  };
  const syncCategories = (productNo: number) => {
    if (products.find(productNo)) products.patch(productNo, { category: productCategories(productNo) });
  };
  const mainGroup = (group: number) => {
    const main = store.get('main', String(group));
    if (!main) throw notFound(`Main display group ${group} does not exist.`);
    return main;
  };
  const mainPlacementsOf = (group: number) =>
    store
      .all<MainPlacement>('mainPlacement')
      .filter((p) => p.display_group === group)
      .sort((a, b) => a.rank - b.rank);
  const syncMains = (productNo: number) => {
    if (!products.find(productNo)) return;
    const groups = store
      .all<MainPlacement>('mainPlacement')
      .filter((p) => p.product_no === productNo)
      .map((p) => p.display_group)
      .sort((a, b) => a - b);
    products.patch(productNo, { main: groups });
  };
  const renumber = (placements: CategoryPlacement[]) => {
    placements.forEach((p, index) => {
      if (p.sequence_no !== index + 1)
        store.put('categoryPlacement', placementKey(p.category_no, p.display_group, p.product_no), {
          ...p,
          sequence_no: index + 1,
        });
    });
  };

  const place = (shopNo: number, categoryNo: number, group: number, productNo: number) => {
    const key = placementKey(categoryNo, group, productNo);
    if (store.get('categoryPlacement', key)) return;
    const last = placementsOf(categoryNo, group).at(-1);
    const placement: CategoryPlacement = {
      shop_no: shopNo,
      category_no: categoryNo,
      display_group: group,
      product_no: productNo,
      sequence_no: (last?.sequence_no ?? 0) + 1,
      auto_sort: false,
      fixed_sort: false,
    };
    store.put('categoryPlacement', key, placement);
  };

  return {
    categoryPlacements: placementsOf,
    listCategoryProducts(categoryNo, group) {
      categories.get(categoryNo);
      return placementsOf(categoryNo, group).flatMap((p) => {
        const product = products.find(p.product_no);
        if (!product || (group !== 1 && product.display === 'F')) return [];
        return [
          {
            shop_no: p.shop_no,
            product_no: p.product_no,
            sequence_no: p.sequence_no,
            auto_sort: p.auto_sort,
            sold_out: product.sold_out === 'T',
            fixed_sort: p.fixed_sort,
            not_for_sale: product.selling === 'F',
          },
        ];
      });
    },
    addToCategory(shopNo, categoryNo, group, productNos) {
      categories.get(categoryNo);
      const outcome: AddOutcome = { added: [], refused: [] };
      productNos.forEach((productNo, index) => {
        if (!products.find(productNo)) {
          outcome.refused.push({ index, productNo });
          return;
        }
        if (group !== 1) place(shopNo, categoryNo, 1, productNo);
        place(shopNo, categoryNo, group, productNo);
        syncCategories(productNo);
        outcome.added.push(productNo);
      });
      return outcome;
    },
    updateCategoryPlacement(shopNo, categoryNo, group, productNo, changes) {
      categories.get(categoryNo);
      const placements = placementsOf(categoryNo, group);
      const index = placements.findIndex((p) => p.product_no === productNo);
      const current = placements[index];
      if (!current)
        throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
      const updated: CategoryPlacement = {
        ...current,
        shop_no: shopNo,
        ...(changes.auto_sort ? { auto_sort: changes.auto_sort === 'T' } : {}),
        ...(changes.fixed_sort ? { fixed_sort: changes.fixed_sort === 'T' } : {}),
      };
      store.put('categoryPlacement', placementKey(categoryNo, group, productNo), updated);
      if (changes.sequence !== undefined) {
        const others = placements.filter((p) => p.product_no !== productNo);
        const position = Math.min(changes.sequence - 1, others.length);
        others.splice(position, 0, updated);
        renumber(others);
      }
      const stored = store.get<CategoryPlacement>(
        'categoryPlacement',
        placementKey(categoryNo, group, productNo),
      );
      return {
        shop_no: shopNo,
        display_group: group,
        product_no: productNo,
        sequence: stored?.sequence_no ?? updated.sequence_no,
        auto_sort: updated.auto_sort ? 'T' : 'F',
        fixed_sort: updated.fixed_sort ? 'T' : 'F',
      };
    },
    removeFromCategory(categoryNo, productNo, group) {
      categories.get(categoryNo);
      if (!store.get('categoryPlacement', placementKey(categoryNo, group, productNo)))
        throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
      for (const g of group === 1 ? [1, 2, 3] : [group]) {
        store.delete('categoryPlacement', placementKey(categoryNo, g, productNo));
        renumber(placementsOf(categoryNo, g));
      }
      syncCategories(productNo);
    },
    forgetCategories(categoryNos) {
      const doomed = new Set(categoryNos);
      const touched = new Set<number>();
      for (const p of store.all<CategoryPlacement>('categoryPlacement')) {
        if (!doomed.has(p.category_no)) continue;
        store.delete('categoryPlacement', placementKey(p.category_no, p.display_group, p.product_no));
        touched.add(p.product_no);
      }
      for (const productNo of touched) syncCategories(productNo);
    },
    forgetProduct(productNo) {
      const sections = new Set<string>();
      for (const p of placementsOfProduct(productNo)) {
        store.delete('categoryPlacement', placementKey(p.category_no, p.display_group, productNo));
        sections.add(`${p.category_no}:${p.display_group}`);
      }
      for (const section of sections) {
        const [categoryNo, group] = section.split(':').map(Number);
        renumber(placementsOf(categoryNo ?? 0, group ?? 0));
      }
      for (const p of store.all<MainPlacement>('mainPlacement'))
        if (p.product_no === productNo) store.delete('mainPlacement', mainKey(p.display_group, productNo));
    },
    productCategories,
    mains: () => store.all('main'),
    listMainProducts(group) {
      mainGroup(group);
      return mainPlacementsOf(group).flatMap((p) => {
        const product = products.find(p.product_no);
        return product
          ? [
              {
                shop_no: p.shop_no,
                product_no: p.product_no,
                product_name: String(product.product_name ?? ''),
                fixed_sort: p.fixed_sort,
              },
            ]
          : [];
      });
    },
    addToMain(shopNo, group, productNos) {
      mainGroup(group);
      const outcome: AddOutcome = { added: [], refused: [] };
      productNos.forEach((productNo, index) => {
        if (!products.find(productNo)) {
          outcome.refused.push({ index, productNo });
          return;
        }
        if (!store.get('mainPlacement', mainKey(group, productNo))) {
          const last = mainPlacementsOf(group).at(-1);
          store.put('mainPlacement', mainKey(group, productNo), {
            shop_no: shopNo,
            display_group: group,
            product_no: productNo,
            rank: (last?.rank ?? 0) + 1,
            fixed_sort: false,
          });
          syncMains(productNo);
        }
        outcome.added.push(productNo);
      });
      return outcome;
    },
    reorderMain(group, productNos, fixed) {
      mainGroup(group);
      const current = mainPlacementsOf(group);
      const inGroup = new Set(current.map((p) => p.product_no));
      productNos.forEach((productNo, index) => {
        if (!inGroup.has(productNo))
          throw invalidField(
            `request.product_no/${index}`,
            `product ${productNo} is not in main group ${group}`,
          );
      });
      const listed = new Set(productNos);
      const order = [...productNos, ...current.map((p) => p.product_no).filter((no) => !listed.has(no))];
      const pinned = new Set(fixed);
      order.forEach((productNo, index) => {
        const placement = current.find((p) => p.product_no === productNo) as MainPlacement;
        store.put('mainPlacement', mainKey(group, productNo), {
          ...placement,
          rank: index + 1,
          fixed_sort: pinned.has(productNo),
        });
      });
    },
    removeFromMain(group, productNo) {
      mainGroup(group);
      if (!store.get('mainPlacement', mainKey(group, productNo)))
        throw notFound(`Product ${productNo} is not in main group ${group}.`);
      store.delete('mainPlacement', mainKey(group, productNo));
      syncMains(productNo);
    },
    ensureMains() {
      if (store.size('main') > 0) return;
      store.transaction(() => {
        for (const group of defaultMainGroups)
          store.put('main', String(group.display_group), { shop_no: 1, ...group, use_autodisplay: 'F' });
      });
    },
  };
}
