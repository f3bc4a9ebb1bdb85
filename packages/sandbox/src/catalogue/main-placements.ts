// The main display groups of the home page, with each shop's products in them, their order and the
// pinned ones; each product's `main` attribute (per shop) is kept in step with its placements in
// that shop. A new sandbox starts with the spec's example groups.
import type { StoredRecord } from '@mall-api/mall-state';
import { invalidField, notFound } from '../sandbox-result.js';
import { type AddOutcome, addEach, type Placements } from './placement-context.js';
import { mainKey } from './shop-keys.js';

interface MainPlacement extends StoredRecord {
  shop_no: number;
  display_group: number;
  product_no: number;
  rank: number;
  fixed_sort: boolean;
}

/** The main display groups a new sandbox starts with (the spec's example groups). */
const defaultMainGroups = [
  { display_group: 2, group_name: 'Weekly Best', module_code: 'product_listmain_1', soldout_sort_type: 'B' },
  { display_group: 3, group_name: 'New Arrivals', module_code: 'product_listmain_2', soldout_sort_type: 'N' },
  { display_group: 4, group_name: 'Recommended', module_code: 'product_listmain_3', soldout_sort_type: 'B' },
] as const;

/** The main group, or a 404. */
function mainGroup({ store }: Placements, group: number): StoredRecord {
  const main = store.get('main', String(group));
  if (!main) throw notFound(`Main display group ${group} does not exist.`);
  return main;
}

/** A group's placements by shop `shopNo`, in order. */
const mainPlacementsOf = ({ store }: Placements, shopNo: number, group: number) =>
  store
    .all<MainPlacement>('mainPlacement')
    .filter((placement) => placement.display_group === group && placement.shop_no === shopNo)
    .sort((a, b) => a.rank - b.rank);

function syncMains(p: Placements, shopNo: number, productNo: number): void {
  if (!p.products.find(productNo)) return;
  const groups = p.store
    .all<MainPlacement>('mainPlacement')
    .filter((placement) => placement.product_no === productNo && placement.shop_no === shopNo)
    .map((placement) => placement.display_group)
    .sort((a, b) => a - b);
  p.products.patch(productNo, { main: groups }, shopNo);
}

/** The products a shop placed in a main group. */
export function listMainProducts(p: Placements, group: number, shopNo = 1): StoredRecord[] {
  mainGroup(p, group);
  return mainPlacementsOf(p, shopNo, group).flatMap((placement) => {
    const product = p.products.find(placement.product_no);
    return product
      ? [
          {
            shop_no: placement.shop_no,
            product_no: placement.product_no,
            product_name: String(product.product_name ?? ''),
            fixed_sort: placement.fixed_sort,
          },
        ]
      : [];
  });
}

export function addToMain(
  p: Placements,
  shopNo: number,
  group: number,
  productNos: readonly number[],
): AddOutcome {
  mainGroup(p, group);
  return addEach(p, 'createMainProduct', productNos, (productNo) => {
    if (p.store.get('mainPlacement', mainKey(group, productNo, shopNo))) return;
    const last = mainPlacementsOf(p, shopNo, group).at(-1);
    p.store.put('mainPlacement', mainKey(group, productNo, shopNo), {
      shop_no: shopNo,
      display_group: group,
      product_no: productNo,
      rank: (last?.rank ?? 0) + 1,
      fixed_sort: false,
    });
    syncMains(p, shopNo, productNo);
  });
}

export function reorderMain(
  p: Placements,
  shopNo: number,
  group: number,
  productNos: readonly number[],
  fixed: readonly number[],
): void {
  mainGroup(p, group);
  const current = mainPlacementsOf(p, shopNo, group);
  const inGroup = new Set(current.map((placement) => placement.product_no));
  productNos.forEach((productNo, index) => {
    if (!inGroup.has(productNo))
      throw invalidField(`request.product_no/${index}`, `product ${productNo} is not in main group ${group}`);
  });
  const listed = new Set(productNos);
  const order = [
    ...productNos,
    ...current.map((placement) => placement.product_no).filter((no) => !listed.has(no)),
  ];
  const pinned = new Set(fixed);
  order.forEach((productNo, index) => {
    const placement = current.find((candidate) => candidate.product_no === productNo) as MainPlacement;
    p.store.put('mainPlacement', mainKey(group, productNo, shopNo), {
      ...placement,
      rank: index + 1,
      fixed_sort: pinned.has(productNo),
    });
  });
}

export function removeFromMain(p: Placements, shopNo: number, group: number, productNo: number): void {
  mainGroup(p, group);
  if (!p.store.get('mainPlacement', mainKey(group, productNo, shopNo)))
    throw notFound(`Product ${productNo} is not in main group ${group}.`);
  p.store.delete('mainPlacement', mainKey(group, productNo, shopNo));
  syncMains(p, shopNo, productNo);
}

/** Removes a product from every main group of every shop. */
export function forgetProductInMains({ store }: Placements, productNo: number): void {
  for (const placement of store.all<MainPlacement>('mainPlacement'))
    if (placement.product_no === productNo)
      store.delete('mainPlacement', mainKey(placement.display_group, productNo, placement.shop_no));
}

/** Creates the default main groups when the store has none. */
export function ensureMains({ store }: Placements): void {
  if (store.size('main') > 0) return;
  store.transaction(() => {
    for (const group of defaultMainGroups)
      store.put('main', String(group.display_group), { shop_no: 1, ...group, use_autodisplay: 'F' });
  });
}
