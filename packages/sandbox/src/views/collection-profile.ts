// The collection attributes a mall's admin records do not hold (a store's grade, language, tags,
// services; a product's discounts, reviews, brand, shipping countries), drawn deterministically
// from the store id, shop and product number out of the collection spec's enums and examples, so
// a mall always answers the same and every collection filter selects some records and not others.
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { drawsFor } from '../support/seeded-random.js';

/** Store tags and brands the sandbox's stores use (the spec lists no values for them). */
const storeTags = ['eco_friendly', 'handmade', 'vintage', 'minimal', 'local', 'premium'];
const brands = ['Harbor Works', 'Linen Lane', 'Oak & Ash', 'Blue Field', 'Stone Mill'];
const shippingCountries = ['US', 'JP', 'CN', 'SG', 'AU', 'CA'];
const discountRates = [0, 0, 5, 10, 15, 20, 30];

/** The store-level attributes of one shop of a store (also copied onto its products). */
export type ShopProfile = Readonly<Record<string, unknown>>;

/** The profile maker over the collection spec's shapes. */
export function collectionProfiles(shapes: RecordShapes) {
  const values = (schema: string, field: string) => shapes.enumOf(schema, field);
  const categoryCodes = ['D100000', 'D200000', 'D300000'];
  const standardTags = shapes.records('StandardTagsPage').flatMap((tag) =>
    (Array.isArray(tag.standard_tag_values) ? tag.standard_tag_values : []).map((value) => ({
      standard_tags_key: String(tag.standard_tag_key),
      standard_tags_values: String(value),
    })),
  );
  return {
    /**
     * The attributes of shop `shopNo` of store `storeId`: each drawn once per store and turned by
     * the shop number, so two shops of a store always differ.
     */
    shop(storeId: string, shopNo: number): ShopProfile {
      const store = drawsFor(storeId);
      const turn = <T>(items: readonly T[]): T =>
        items[(store.below(items.length) + shopNo) % items.length] as T;
      const turnSome = <T>(items: readonly T[]): T[] => [...new Set([turn(items), turn(items)])];
      const department = turn(categoryCodes);
      const day = Date.UTC(2024, 0, 1) + (store.below(300) + shopNo * 40) * 86_400_000;
      return {
        collection_store_category: {
          depth1: department,
          depth2: `${department.slice(0, 4)}${turn([1, 2, 3])}00`,
        },
        shop_name: shopNo === 1 ? `Sandbox ${storeId}` : `Sandbox ${storeId} shop ${shopNo}`,
        shop_currency_code: turn(values('Shop', 'shop_currency_code')),
        shop_language: turn(values('Shop', 'shop_language')),
        shop_grade: turn(values('Shop', 'shop_grade')),
        shop_popular_age: turn(values('Shop', 'shop_popular_age')),
        shop_sex: turn(values('Shop', 'shop_sex')),
        shop_region: turn(values('Shop', 'shop_region')),
        shop_tags: turnSome(storeTags),
        social_logins: turnSome(values('Shop', 'social_logins')),
        use_cafe24pay: turn([true, false]),
        use_naverpay: turn([true, false]),
        use_EMS: turn([true, false]),
        shipping_fee_type: turn(values('Shop', 'shipping_fee_type')),
        benefits: turnSome(values('Shop', 'benefits')),
        global_payment_type: turnSome(values('Shop', 'global_payment_type')),
        created_date: `${new Date(day).toISOString().slice(0, 10)}T10:00:00+09:00`,
      };
    },
    /** The attributes of a product as store `storeId` sells it, at `price` (a decimal string). */
    product(storeId: string, product: ProductRecord, price: string) {
      const draw = drawsFor(`${storeId}|${product.product_no}`);
      const pcRate = draw.pick(discountRates);
      const mobileRate = pcRate === 0 && draw.chance(0.7) ? 0 : pcRate + draw.pick([0, 5]);
      const discounted = (rate: number) => ((Number(price) * (100 - rate)) / 100).toFixed(2);
      const international = draw.chance(0.4);
      const reviews = draw.chance(0.25) ? 0 : 1 + draw.below(300);
      return {
        pc_discount_price: discounted(pcRate),
        mobile_discount_price: discounted(mobileRate),
        is_pc_discount: pcRate > 0,
        is_mobile_discount: mobileRate > 0,
        pc_discount_rate: pcRate,
        mobile_discount_rate: mobileRate,
        is_free_shipping: draw.chance(0.4),
        is_international_shipping: international,
        international_shipping_country: international ? draw.some(shippingCountries, 3) : [],
        is_free_gift: draw.chance(0.3),
        is_coupon_discount: draw.chance(0.3),
        brand_name: draw.pick(brands),
        product_standard_tags: draw.some(standardTags, 2),
        product_popular_age: draw.pick(values('Product', 'product_popular_age')),
        review_count: reviews,
        review_score: reviews === 0 ? 0 : Number((3 + draw.below(200) / 100).toFixed(2)),
        hits_count: draw.below(5000),
      };
    },
  };
}
