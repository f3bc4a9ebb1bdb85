// How the sandbox pages and shapes list answers, over parameters the front layer converted by the
// spec: `limit`/`offset` page, `fields` keeps the named attributes (and the id), and `embed` adds
// the lower resources, built from the stored record and the attributes the collection API shows,
// so the two APIs agree. Which records a query selects is declared-filters.ts's.
import type { ProductRecord } from '../catalogue/product-directory.js';
import { type OptionInput, optionsEmbed, variantsOf } from '../catalogue/product-options.js';

/** The paging parameters of a list. */
export interface ListWindow {
  readonly offset?: number;
  readonly limit?: number;
}

/** One page of `items` by `limit` (default `defaultLimit`) and `offset`. */
export function page<T>(items: readonly T[], window: ListWindow, defaultLimit: number): T[] {
  const offset = window.offset ?? 0;
  return items.slice(offset, offset + (window.limit ?? defaultLimit));
}

/**
 * One page of the items `matches` accepts, in the order of `items`: scans only until the page is
 * full, so an early page of a large table costs little.
 */
export function pageOfMatches<T>(
  items: readonly T[],
  matches: (item: T) => boolean,
  window: ListWindow,
  defaultLimit: number,
): T[] {
  const offset = window.offset ?? 0;
  const limit = window.limit ?? defaultLimit;
  const result: T[] = [];
  let skipped = 0;
  for (const item of items) {
    if (result.length === limit) break;
    if (!matches(item)) continue;
    if (skipped < offset) skipped++;
    else result.push(item);
  }
  return result;
}

/** How many of `items` `matches` accepts. */
export function countMatches<T>(items: readonly T[], matches: (item: T) => boolean): number {
  let count = 0;
  for (const item of items) if (matches(item)) count++;
  return count;
}

/** The record with only the attributes `fields` names, plus the identifier. */
export function pickFields(
  record: Record<string, unknown>,
  fields: readonly string[] | undefined,
  idField: string,
): Record<string, unknown> {
  if (!fields) return record;
  const picked: Record<string, unknown> = {};
  for (const field of [idField, ...fields]) if (Object.hasOwn(record, field)) picked[field] = record[field];
  return picked;
}

/** What the collection API shows for a product that its embeds repeat. */
export interface SoldAs {
  readonly pc_discount_price: string;
  readonly mobile_discount_price: string;
  readonly pc_discount_rate: number;
  readonly mobile_discount_rate: number;
  readonly is_free_gift: boolean;
  readonly hits_count: number;
}

/** The benefits a product is sold with: a limited-time discount (DP), a free gift (PG). */
const benefitsOf = (sold: SoldAs) => [
  ...(sold.pc_discount_rate > 0 || sold.mobile_discount_rate > 0
    ? [
        {
          benefit_type: 'DP',
          pc_discount_rate: sold.pc_discount_rate,
          mobile_discount_rate: sold.mobile_discount_rate,
        },
      ]
    : []),
  ...(sold.is_free_gift ? [{ benefit_type: 'PG' }] : []),
];

/** The lower resources `embed` asks for, built from what the sandbox stores and how it sells the product. */
export function embedded(
  product: ProductRecord,
  options: readonly OptionInput[],
  embeds: readonly string[] | undefined,
  soldAs: (product: ProductRecord) => SoldAs,
): Record<string, unknown> {
  if (!embeds || embeds.length === 0) return {};
  const images = Array.isArray(product.additional_image) ? product.additional_image : [];
  const builders: Record<string, () => unknown> = {
    discountprice: () => {
      const { pc_discount_price, mobile_discount_price } = soldAs(product);
      return { pc_discount_price, mobile_discount_price };
    },
    decorationimages: () => [],
    benefits: () => benefitsOf(soldAs(product)),
    options: () => optionsEmbed(options),
    variants: () => variantsOf(product, options),
    additionalimages: () => images.slice(0, 20),
    memos: () => [],
    hits: () => ({ count: soldAs(product).hits_count }),
    seo: () => ({ meta_title: product.product_name, search_engine_exposure: 'T' }),
    tags: () => ({ tags: Array.isArray(product.product_tag) ? product.product_tag : [] }),
  };
  return Object.fromEntries(
    (embeds ?? []).flatMap((name) => (builders[name] ? [[name, builders[name]()]] : [])),
  );
}
