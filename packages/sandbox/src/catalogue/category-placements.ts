// The three sections of a category (1 regular, 2 recommended, 3 new), per shop, with their order
// (`sequence_no`, fixed positions): a product in section 2 or 3 is also in section 1, and leaving
// section 1 leaves all three; a product whose `display` is F is not listed in sections 2 and 3; each
// product's `category` attribute (per shop) is kept in step with its placements in that shop.
import type { StoredRecord } from '@mall-api/mall-state';
import { notFound } from '../sandbox-result.js';
import { type AddOutcome, addEach, type Placements } from './placement-context.js';
import { placementKey } from './shop-keys.js';

interface CategoryPlacement extends StoredRecord {
  shop_no: number;
  category_no: number;
  display_group: number;
  product_no: number;
  sequence_no: number;
  auto_sort: boolean;
  fixed_sort: boolean;
}

/** A section's placements by shop `shopNo`, in order. */
const placementsOf = ({ store }: Placements, shopNo: number, categoryNo: number, group: number) =>
  store
    .all<CategoryPlacement>('categoryPlacement')
    .filter((p) => p.category_no === categoryNo && p.display_group === group && p.shop_no === shopNo)
    .sort((a, b) => a.sequence_no - b.sequence_no);

const placementsOfProduct = ({ store }: Placements, productNo: number) =>
  store.all<CategoryPlacement>('categoryPlacement').filter((p) => p.product_no === productNo);

const keyOf = (p: CategoryPlacement) => placementKey(p.category_no, p.display_group, p.product_no, p.shop_no);

/** The categories of a product in a shop, as its `category` attribute lists them. */
function productCategories(p: Placements, shopNo: number, productNo: number) {
  const byCategory = new Map<number, Set<number>>();
  for (const placement of placementsOfProduct(p, productNo)) {
    if (placement.shop_no !== shopNo) continue;
    const groups = byCategory.get(placement.category_no) ?? new Set<number>();
    groups.add(placement.display_group);
    byCategory.set(placement.category_no, groups);
  }
  return [...byCategory].map(([category_no, groups]) => ({
    category_no,
    recommend: groups.has(2) ? 'T' : 'F',
    new: groups.has(3) ? 'T' : 'F',
  }));
}

function syncCategories(p: Placements, shopNo: number, productNo: number): void {
  if (p.products.find(productNo))
    p.products.patch(productNo, { category: productCategories(p, shopNo, productNo) }, shopNo);
}

/** Numbers a section's placements 1, 2, … in their order. */
function renumber({ store }: Placements, placements: CategoryPlacement[]): void {
  placements.forEach((placement, index) => {
    if (placement.sequence_no !== index + 1)
      store.put('categoryPlacement', keyOf(placement), { ...placement, sequence_no: index + 1 });
  });
}

/** Places a product last in a section, unless it is there already. */
function place(p: Placements, shopNo: number, categoryNo: number, group: number, productNo: number): void {
  const key = placementKey(categoryNo, group, productNo, shopNo);
  if (p.store.get('categoryPlacement', key)) return;
  const last = placementsOf(p, shopNo, categoryNo, group).at(-1);
  const placement: CategoryPlacement = {
    shop_no: shopNo,
    category_no: categoryNo,
    display_group: group,
    product_no: productNo,
    sequence_no: (last?.sequence_no ?? 0) + 1,
    auto_sort: false,
    fixed_sort: false,
  };
  p.store.put('categoryPlacement', key, placement);
}

/** The products a shop placed in a category's section, as listed. */
export function listCategoryProducts(
  p: Placements,
  categoryNo: number,
  group: number,
  shopNo = 1,
): StoredRecord[] {
  p.categories.get(categoryNo);
  return placementsOf(p, shopNo, categoryNo, group).flatMap((placement) => {
    const product = p.products.find(placement.product_no);
    if (!product || (group !== 1 && product.display === 'F')) return [];
    return [
      {
        shop_no: placement.shop_no,
        product_no: placement.product_no,
        sequence_no: placement.sequence_no,
        auto_sort: placement.auto_sort,
        sold_out: product.sold_out === 'T',
        fixed_sort: placement.fixed_sort,
        not_for_sale: product.selling === 'F',
      },
    ];
  });
}

export function addToCategory(
  p: Placements,
  shopNo: number,
  categoryNo: number,
  group: number,
  productNos: readonly number[],
): AddOutcome {
  p.categories.get(categoryNo);
  return addEach(p, 'createCategoryProduct', productNos, (productNo) => {
    if (group !== 1) place(p, shopNo, categoryNo, 1, productNo);
    place(p, shopNo, categoryNo, group, productNo);
    syncCategories(p, shopNo, productNo);
  });
}

export function updateCategoryPlacement(
  p: Placements,
  shopNo: number,
  categoryNo: number,
  group: number,
  productNo: number,
  changes: { sequence?: number; auto_sort?: string; fixed_sort?: string },
): StoredRecord {
  const { store } = p;
  p.categories.get(categoryNo);
  const placements = placementsOf(p, shopNo, categoryNo, group);
  const current = placements.find((placement) => placement.product_no === productNo);
  if (!current) throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
  const updated: CategoryPlacement = {
    ...current,
    ...(changes.auto_sort ? { auto_sort: changes.auto_sort === 'T' } : {}),
    ...(changes.fixed_sort ? { fixed_sort: changes.fixed_sort === 'T' } : {}),
  };
  store.put('categoryPlacement', keyOf(updated), updated);
  if (changes.sequence !== undefined) {
    const others = placements.filter((placement) => placement.product_no !== productNo);
    const position = Math.min(changes.sequence - 1, others.length);
    others.splice(position, 0, updated);
    renumber(p, others);
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
}

export function removeFromCategory(
  p: Placements,
  shopNo: number,
  categoryNo: number,
  productNo: number,
  group: number,
): void {
  p.categories.get(categoryNo);
  if (!p.store.get('categoryPlacement', placementKey(categoryNo, group, productNo, shopNo)))
    throw notFound(`Product ${productNo} is not in section ${group} of category ${categoryNo}.`);
  for (const g of group === 1 ? [1, 2, 3] : [group]) {
    p.store.delete('categoryPlacement', placementKey(categoryNo, g, productNo, shopNo));
    renumber(p, placementsOf(p, shopNo, categoryNo, g));
  }
  syncCategories(p, shopNo, productNo);
}

/** Removes every placement in the given categories (they are being deleted). */
export function forgetCategories(p: Placements, categoryNos: readonly number[]): void {
  const doomed = new Set(categoryNos);
  const touched = new Map<string, [number, number]>();
  for (const placement of p.store.all<CategoryPlacement>('categoryPlacement')) {
    if (!doomed.has(placement.category_no)) continue;
    p.store.delete('categoryPlacement', keyOf(placement));
    touched.set(`${placement.shop_no}:${placement.product_no}`, [placement.shop_no, placement.product_no]);
  }
  for (const [shopNo, productNo] of touched.values()) syncCategories(p, shopNo, productNo);
}

/** Removes a product from every section of every shop, the sections renumbered. */
export function forgetProductInCategories(p: Placements, productNo: number): void {
  const sections = new Map<string, [number, number, number]>();
  for (const placement of placementsOfProduct(p, productNo)) {
    p.store.delete('categoryPlacement', keyOf(placement));
    sections.set(`${placement.shop_no}:${placement.category_no}:${placement.display_group}`, [
      placement.shop_no,
      placement.category_no,
      placement.display_group,
    ]);
  }
  for (const [shopNo, categoryNo, group] of sections.values())
    renumber(p, placementsOf(p, shopNo, categoryNo, group));
}
