// What a shop other than the default one keeps for itself: its `x-per-shop` attributes, kept apart
// from the record all shops share, and the keys of its own records (decoration images, SEO,
// category and main group placements). The default shop's (shop 1) keys have no shop part, so its
// records keep the keys they always had; another shop's end in `@<shop>`.

/** The suffix of a key of shop `shopNo`'s record (none for the default shop). */
const shopSuffix = (shopNo: number) => (shopNo === 1 ? '' : `@${shopNo}`);

/** The key of a category's decoration images or SEO settings in shop `shopNo`. */
export const settingsKey = (categoryNo: number, shopNo: number) => `${categoryNo}${shopSuffix(shopNo)}`;

/** The key a category placement of shop `shopNo` is stored under. */
export const placementKey = (categoryNo: number, group: number, productNo: number, shopNo: number) =>
  `${categoryNo}:${group}:${productNo}${shopSuffix(shopNo)}`;

/** The key a main group placement of shop `shopNo` is stored under. */
export const mainKey = (group: number, productNo: number, shopNo: number) =>
  `${group}:${productNo}${shopSuffix(shopNo)}`;

/** Own attributes by shop number, beside a record every shop shares. */
type ByShop = Record<string, Record<string, unknown>>;

/**
 * Takes the attributes shop `shopNo` keeps for itself (`perShop`) out of `accepted` and returns them
 * in `byShop` (unchanged when there are none, always for the default shop, which owns the record).
 */
export function takeOwn(
  accepted: Record<string, unknown>,
  perShop: Iterable<string>,
  shopNo: number,
  byShop: ByShop | undefined,
): ByShop | undefined {
  if (shopNo === 1) return byShop;
  const own = Object.fromEntries([...perShop].filter((f) => f in accepted).map((f) => [f, accepted[f]]));
  for (const field of Object.keys(own)) delete accepted[field];
  return Object.keys(own).length === 0 ? byShop : { ...byShop, [shopNo]: { ...byShop?.[shopNo], ...own } };
}
