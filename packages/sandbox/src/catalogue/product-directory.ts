// How products are stored (the `product` table: the response record, whether it is a bundle, its
// options, per-shop prices and per-shop placements) and the small directory over that table that the placement service
// reads and patches, so placements and products need not know each other's services.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import type { OptionInput } from './product-options.js';

/** A product's response record. */
export interface ProductRecord extends StoredRecord {
  shop_no: number;
  product_no: number;
  product_code: string;
  product_name: string;
  created_date: string;
  updated_date: string;
  display?: unknown;
  selling?: unknown;
  sold_out?: unknown;
}

/** How products are stored: the record and whether it is a bundle. */
export interface StoredProduct extends StoredRecord {
  bundle: boolean;
  record: ProductRecord;
  /** The options the product was created with (its variants are their combinations). */
  options?: OptionInput[];
  /** Prices a shop other than the default one set for itself, by shop number. */
  shopPrices?: Record<string, Record<string, unknown>>;
  /**
   * The `category` and `main` attributes of the product in a shop other than the default one (its
   * placements there), by shop number; the record holds the default shop's.
   */
  shopPlacements?: Record<string, Record<string, unknown>>;
}

/** The directory over the `product` table of `store`. */
export function createProductDirectory(store: SandboxStore) {
  /** The stored product, if it exists. */
  const stored = (productNo: number) => store.get<StoredProduct>('product', String(productNo));
  return {
    stored,
    /** The product's record (as the default shop shows it), if it exists. */
    find: (productNo: number): ProductRecord | undefined => stored(productNo)?.record,
    /** Replaces some placement attributes (`category`, `main`) of a product as shop `shopNo` shows it. */
    patch(productNo: number, attributes: Record<string, unknown>, shopNo: number): void {
      const entry = stored(productNo);
      if (!entry) return;
      if (shopNo === 1)
        store.put('product', String(productNo), { ...entry, record: { ...entry.record, ...attributes } });
      else {
        const own = { ...entry.shopPlacements?.[shopNo], ...attributes };
        store.put('product', String(productNo), {
          ...entry,
          shopPlacements: { ...entry.shopPlacements, [shopNo]: own },
        });
      }
    },
  };
}

/** Reads and patches the stored product records (see {@link createProductDirectory}). */
export type ProductDirectory = ReturnType<typeof createProductDirectory>;
