// Where products are shown: the three sections of a category (1 regular, 2 recommended, 3 new)
// with their order (`sequence_no`, fixed positions) and the main display groups of the home page
// with their order and pinned products. Each shop places products for itself: a placement belongs
// to the shop that made it, and reading, ordering or removing in one shop leaves another shop's
// placements as they are. Placing needs an existing category (or group), and each product must be
// one the add operation's request may name (its `x-refers-to`, reference-check.ts); a product in
// section 2 or 3 is also in section 1, and leaving section 1 leaves all three; a product whose
// `display` is F is not shown in sections 2 and 3. Each product's `category` and `main`
// attributes (per shop) are kept in step with its placements in that shop.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import type { CategoryService } from './category-service.js';
import type { ProductDirectory } from './product-directory.js';
import type { RequestReferenceCheck } from './reference-check.js';
import { invalidField, notFound } from './refusal.js';
import { mainKey, placementKey } from './shop-keys.js';

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

export function createPlacementService(
  store: SandboxStore,
  categories: CategoryService,
  products: ProductDirectory,
  references: RequestReferenceCheck,
): PlacementService {
  /** The items of `productNos` the add operation `operationId` may not name, by their index. */
  const refusedOf = (operationId: string, productNos: readonly number[]) => {
    const refused = new Map<number, number>();
    for (const { path } of references(operationId, { request: { product_no: productNos } })) {
      const index = Number(path.at(-1));
      refused.set(index, productNos[index] as number);
    }
    return refused;
  };
  /** Adds each product `add` takes, refusing those the operation may not name. */
  const addEach = (operationId: string, productNos: readonly number[], add: (productNo: number) => void) => {
    const refused = refusedOf(operationId, productNos);
    const outcome: AddOutcome = { added: [], refused: [] };
    productNos.forEach((productNo, index) => {
      if (refused.has(index)) outcome.refused.push({ index, productNo });
      else {
        add(productNo);
        outcome.added.push(productNo);
      }
    });
    return outcome;
  };
  const placementsOf = (shopNo: number, categoryNo: number, group: number) =>
    store
      .all<CategoryPlacement>('categoryPlacement')
      .filter((p) => p.category_no === categoryNo && p.display_group === group && p.shop_no === shopNo)
      .sort((a, b) => a.sequence_no - b.sequence_no);
  const placementsOfProduct = (productNo: number) =>
    store.all<CategoryPlacement>('categoryPlacement').filter((p) => p.product_no === productNo);
  const keyOf = (p: CategoryPlacement) =>
    placementKey(p.category_no, p.display_group, p.product_no, p.shop_no);

  /** The categories of a product in a shop, as its `category` attribute lists them. */
  const productCategories = (shopNo: number, productNo: number) => {
    const byCategory = new Map<number, Set<number>>();
    for (const p of placementsOfProduct(productNo)) {
      if (p.shop_no !== shopNo) continue;
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
  const syncCategories = (shopNo: number, productNo: number) => {
    if (products.find(productNo))
      products.patch(productNo, { category: productCategories(shopNo, productNo) }, shopNo);
  };
  const mainGroup = (group: number) => {
    const main = store.get('main', String(group));
    if (!main) throw notFound(`Main display group ${group} does not exist.`);
    return main;
  };
  const mainPlacementsOf = (shopNo: number, group: number) =>
    store
      .all<MainPlacement>('mainPlacement')
      .filter((p) => p.display_group === group && p.shop_no === shopNo)
      .sort((a, b) => a.rank - b.rank);
  const syncMains = (shopNo: number, productNo: number) => {
    if (!products.find(productNo)) return;
    const groups = store
      .all<MainPlacement>('mainPlacement')
      .filter((p) => p.product_no === productNo && p.shop_no === shopNo)
      .map((p) => p.display_group)
      .sort((a, b) => a - b);
    products.patch(productNo, { main: groups }, shopNo);
  };
  const renumber = (placements: CategoryPlacement[]) => {
    placements.forEach((p, index) => {
      if (p.sequence_no !== index + 1)
        store.put('categoryPlacement', keyOf(p), { ...p, sequence_no: index + 1 });
    });
  };

  const place = (shopNo: number, categoryNo: number, group: number, productNo: number) => {
    const key = placementKey(categoryNo, group, productNo, shopNo);
    if (store.get('categoryPlacement', key)) return;
    const last = placementsOf(shopNo, categoryNo, group).at(-1);
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
    listCategoryProducts(categoryNo, group, shopNo = 1) {
      categories.get(categoryNo);
      return placementsOf(shopNo, categoryNo, group).flatMap((p) => {
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
      return addEach('createCategoryProduct', productNos, (productNo) => {
        if (group !== 1) place(shopNo, categoryNo, 1, productNo);
        place(shopNo, categoryNo, group, productNo);
        syncCategories(shopNo, productNo);
      });
    },
    updateCategoryPlacement(shopNo, categoryNo, group, productNo, changes) {
      categories.get(categoryNo);
      const placements = placementsOf(shopNo, categoryNo, group);
      const current = placements.find((p) => p.product_no === productNo);
      if (!current)
        throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
      const updated: CategoryPlacement = {
        ...current,
        ...(changes.auto_sort ? { auto_sort: changes.auto_sort === 'T' } : {}),
        ...(changes.fixed_sort ? { fixed_sort: changes.fixed_sort === 'T' } : {}),
      };
      store.put('categoryPlacement', keyOf(updated), updated);
      if (changes.sequence !== undefined) {
        const others = placements.filter((p) => p.product_no !== productNo);
        const position = Math.min(changes.sequence - 1, others.length);
        others.splice(position, 0, updated);
        renumber(others);
      }
      const stored = store.get<CategoryPlacement>('categoryPlacement', keyOf(updated));
      return {
        shop_no: shopNo,
        display_group: group,
        product_no: productNo,
        sequence: stored?.sequence_no ?? updated.sequence_no,
        auto_sort: updated.auto_sort ? 'T' : 'F',
        fixed_sort: updated.fixed_sort ? 'T' : 'F',
      };
    },
    removeFromCategory(shopNo, categoryNo, productNo, group) {
      categories.get(categoryNo);
      if (!store.get('categoryPlacement', placementKey(categoryNo, group, productNo, shopNo)))
        throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
      for (const g of group === 1 ? [1, 2, 3] : [group]) {
        store.delete('categoryPlacement', placementKey(categoryNo, g, productNo, shopNo));
        renumber(placementsOf(shopNo, categoryNo, g));
      }
      syncCategories(shopNo, productNo);
    },
    forgetCategories(categoryNos) {
      const doomed = new Set(categoryNos);
      const touched = new Map<string, [number, number]>();
      for (const p of store.all<CategoryPlacement>('categoryPlacement')) {
        if (!doomed.has(p.category_no)) continue;
        store.delete('categoryPlacement', keyOf(p));
        touched.set(`${p.shop_no}:${p.product_no}`, [p.shop_no, p.product_no]);
      }
      for (const [shopNo, productNo] of touched.values()) syncCategories(shopNo, productNo);
    },
    forgetProduct(productNo) {
      const sections = new Map<string, [number, number, number]>();
      for (const p of placementsOfProduct(productNo)) {
        store.delete('categoryPlacement', keyOf(p));
        sections.set(`${p.shop_no}:${p.category_no}:${p.display_group}`, [
          p.shop_no,
          p.category_no,
          p.display_group,
        ]);
      }
      for (const [shopNo, categoryNo, group] of sections.values())
        renumber(placementsOf(shopNo, categoryNo, group));
      for (const p of store.all<MainPlacement>('mainPlacement'))
        if (p.product_no === productNo)
          store.delete('mainPlacement', mainKey(p.display_group, productNo, p.shop_no));
    },
    mains: () => store.all('main'),
    listMainProducts(group, shopNo = 1) {
      mainGroup(group);
      return mainPlacementsOf(shopNo, group).flatMap((p) => {
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
      return addEach('createMainProduct', productNos, (productNo) => {
        if (!store.get('mainPlacement', mainKey(group, productNo, shopNo))) {
          const last = mainPlacementsOf(shopNo, group).at(-1);
          store.put('mainPlacement', mainKey(group, productNo, shopNo), {
            shop_no: shopNo,
            display_group: group,
            product_no: productNo,
            rank: (last?.rank ?? 0) + 1,
            fixed_sort: false,
          });
          syncMains(shopNo, productNo);
        }
      });
    },
    reorderMain(shopNo, group, productNos, fixed) {
      mainGroup(group);
      const current = mainPlacementsOf(shopNo, group);
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
        store.put('mainPlacement', mainKey(group, productNo, shopNo), {
          ...placement,
          rank: index + 1,
          fixed_sort: pinned.has(productNo),
        });
      });
    },
    removeFromMain(shopNo, group, productNo) {
      mainGroup(group);
      if (!store.get('mainPlacement', mainKey(group, productNo, shopNo)))
        throw notFound(`Product ${productNo} is not in main group ${group}.`);
      store.delete('mainPlacement', mainKey(group, productNo, shopNo));
      syncMains(shopNo, productNo);
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
