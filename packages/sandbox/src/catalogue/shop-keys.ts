// The keys the records a shop keeps for itself are stored under: a category's decoration images
// and SEO, a category placement and a main group placement. The default shop's (shop 1) keys have
// no shop part, so its records keep the keys they always had; another shop's end in `@<shop>`.

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
