// How the sandbox answers list and count queries, from the seed's conventions, over parameters the
// front layer has already converted by the spec (comma lists are arrays, numbers are numbers): list
// items are OR conditions, names match as case-insensitive substrings, `*_min`/`*_max` and date
// ranges bound a value, `limit`/`offset` page (their caps are enforced before, by the spec's
// validation), `fields` keeps only the named attributes (and the id) and `embed` adds the lower
// resources, built from the stored record.
import type { CategoryRecord } from '../catalogue/category-service.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import { type OptionInput, optionsEmbed, variantsOf } from '../catalogue/product-options.js';
import { parseBound } from '../support/kst-time.js';

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

/** The category filters of the list and count operations. */
export interface CategoryFilters {
  readonly category_depth?: number;
  readonly category_no?: readonly number[];
  readonly parent_category_no?: number;
  readonly category_name?: string;
  readonly use_main?: string;
  readonly use_display?: string;
}

/** The matcher of the category filters. */
export function categoryMatcher(filters: CategoryFilters): (category: CategoryRecord) => boolean {
  const { category_depth: depth, category_no: numbers, parent_category_no: parent } = filters;
  const name = filters.category_name?.toLowerCase();
  const { use_main: useMain, use_display: useDisplay } = filters;
  return (c) =>
    (depth === undefined || c.category_depth === depth) &&
    (numbers === undefined || numbers.includes(c.category_no)) &&
    (parent === undefined || c.parent_category_no === parent) &&
    (name === undefined || c.category_name.toLowerCase().includes(name)) &&
    (useMain === undefined || c.use_main === useMain) &&
    (useDisplay === undefined || c.use_display === useDisplay);
}

const substringFields = [
  'product_name',
  'eng_product_name',
  'supply_product_name',
  'internal_product_name',
  'model_name',
] as const;
const exactFields = [
  'product_code',
  'custom_product_code',
  'brand_code',
  'manufacturer_code',
  'supplier_code',
  'trend_code',
  'classification_code',
  'product_condition',
  'origin_place_value',
  'option_type',
] as const;
const flagFields = ['display', 'selling', 'approve_status', 'market_sync'] as const;
const ranges = ['price', 'retail_price', 'supply_price'] as const;
const dateRanges = [
  ['created', 'created_date'],
  ['updated', 'updated_date'],
] as const;

type Range = (typeof ranges)[number];
type DatePrefix = (typeof dateRanges)[number][0];

/** The product filters of the list and count operations (products and bundle products). */
export type ProductFilters = { readonly [F in (typeof substringFields)[number]]?: readonly string[] } & {
  readonly [F in (typeof exactFields)[number]]?: readonly string[];
} & { readonly [F in (typeof flagFields)[number]]?: string } & {
  readonly [F in `${Range}_min` | `${Range}_max`]?: number;
} & { readonly [F in `${DatePrefix}_start_date` | `${DatePrefix}_end_date`]?: string } & {
  readonly product_no?: readonly number[];
  readonly custom_variant_code?: readonly string[];
  readonly product_tag?: readonly string[];
  /** A list in the product list, one value in the bundle list. */
  readonly product_weight?: readonly string[] | string;
  readonly category?: number;
  readonly include_sub_category?: string;
  readonly category_unapplied?: string;
  readonly additional_information_key?: string;
  readonly additional_information_value?: string;
  readonly product_bundle?: string;
  readonly since_product_no?: number;
};

/** What a product filter needs to know beyond the record. */
export interface ProductFilterContext {
  /** Category numbers a `category` filter covers (with sub-categories when asked). */
  categoriesFor(categoryNo: number, includeSubCategories: boolean): Set<number>;
  isBundle(productNo: number): boolean;
  /** The custom variant codes of a product's variants. */
  customVariantCodes(product: ProductRecord): string[];
}

/** The matcher of the product filters. */
export function productMatcher(
  filters: ProductFilters,
  context: ProductFilterContext,
): (product: ProductRecord) => boolean {
  const checks: ((p: ProductRecord) => boolean)[] = [];
  const numbers = filters.product_no;
  if (numbers) checks.push((p) => numbers.includes(p.product_no));
  for (const field of substringFields) {
    const values = filters[field]?.map((v) => v.toLowerCase());
    if (values)
      checks.push((p) =>
        values.some((v) =>
          String(p[field] ?? '')
            .toLowerCase()
            .includes(v),
        ),
      );
  }
  for (const field of exactFields) {
    const values = filters[field];
    if (values) checks.push((p) => values.includes(String(p[field] ?? '')));
  }
  const variantCodes = filters.custom_variant_code;
  if (variantCodes)
    checks.push((p) => context.customVariantCodes(p).some((code) => variantCodes.includes(code)));
  const tags = filters.product_tag?.map((v) => v.toLowerCase());
  if (tags)
    checks.push(
      (p) =>
        Array.isArray(p.product_tag) && p.product_tag.some((t) => tags.includes(String(t).toLowerCase())),
    );
  for (const field of flagFields) {
    const value = filters[field];
    if (value !== undefined) checks.push((p) => p[field] === value);
  }
  for (const field of ranges) {
    const [min, max] = [filters[`${field}_min`], filters[`${field}_max`]];
    if (min !== undefined) checks.push((p) => Number(p[field] ?? 0) >= min);
    if (max !== undefined) checks.push((p) => Number(p[field] ?? 0) <= max);
  }
  for (const [prefix, field] of dateRanges) {
    const [start, end] = [filters[`${prefix}_start_date`], filters[`${prefix}_end_date`]];
    if (start !== undefined) {
      const bound = parseBound(start, false);
      checks.push((p) => Date.parse(String(p[field])) >= bound);
    }
    if (end !== undefined) {
      const bound = parseBound(end, true);
      checks.push((p) => Date.parse(String(p[field])) <= bound);
    }
  }
  const weight = filters.product_weight;
  if (weight !== undefined) {
    const weights = (typeof weight === 'string' ? [weight] : weight).map(Number);
    checks.push((p) => weights.includes(Number(p.product_weight)));
  }
  const category = filters.category;
  if (category !== undefined) {
    const covered = context.categoriesFor(category, filters.include_sub_category === 'T');
    checks.push(
      (p) =>
        Array.isArray(p.category) &&
        p.category.some((c: { category_no: number }) => covered.has(c.category_no)),
    );
  }
  if (filters.category_unapplied === 'T')
    checks.push((p) => !Array.isArray(p.category) || p.category.length === 0);
  const { additional_information_key: infoKey, additional_information_value: infoValue } = filters;
  if (infoKey !== undefined || infoValue !== undefined)
    checks.push(
      (p) =>
        Array.isArray(p.additional_information) &&
        p.additional_information.some(
          (item: { key?: unknown; value?: unknown }) =>
            (infoKey === undefined || item.key === infoKey) &&
            (infoValue === undefined || item.value === infoValue),
        ),
    );
  const bundle = filters.product_bundle;
  if (bundle !== undefined) checks.push((p) => context.isBundle(p.product_no) === (bundle === 'T'));
  const since = filters.since_product_no;
  if (since !== undefined) checks.push((p) => p.product_no > since);
  return (p) => checks.every((check) => check(p));
}

/** The lower resources `embed` asks for, built from what the sandbox stores. */
export function embedded(
  product: ProductRecord,
  options: readonly OptionInput[],
  embeds: readonly string[] | undefined,
): Record<string, unknown> {
  const images = Array.isArray(product.additional_image) ? product.additional_image : [];
  const builders: Record<string, () => unknown> = {
    discountprice: () => ({
      pc_discount_price: product.price ?? null,
      mobile_discount_price: product.price ?? null,
    }),
    decorationimages: () => [],
    benefits: () => [],
    options: () => optionsEmbed(options),
    variants: () => variantsOf(product, options),
    additionalimages: () => images.slice(0, 20),
    memos: () => [],
    hits: () => ({ count: 0 }),
    seo: () => ({ meta_title: product.product_name, search_engine_exposure: 'T' }),
    tags: () => ({ tags: Array.isArray(product.product_tag) ? product.product_tag : [] }),
  };
  return Object.fromEntries(
    (embeds ?? []).flatMap((name) => (builders[name] ? [[name, builders[name]()]] : [])),
  );
}
