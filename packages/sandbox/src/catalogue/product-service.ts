// Products and bundle products of the sandbox mall: a create issues the number and code, starts
// from the request's documented defaults and places the product as `add_category_no` and `main`
// say; an update merges the request under the rules (product-rules.ts) and reprices
// (product-pricing.ts); a bundle's component cannot be deleted, and a deleted product leaves every
// placement and related-products list.
import type { SandboxStore } from '@mall-api/mall-state';
import { invalidFields, notFound } from '../sandbox-result.js';
import { boundTo } from '../support/bound.js';
import { derivedFrom } from '../support/derived.js';
import { kstDateTime } from '../support/kst-time.js';
import { cached } from '../support/memo.js';
import type { PlacementService } from './placement-service.js';
import type { ProductDirectory, ProductRecord, StoredProduct } from './product-directory.js';
import { type OptionInput, optionsOfRequest } from './product-options.js';
import { sortProducts } from './product-order.js';
import { bundleParts, iconPeriod, priceFields } from './product-pricing.js';
import { categoriesToDelete, checkProduct } from './product-rules.js';
import type { RecordShapes } from './record-shapes.js';
import type { RequestReferenceCheck } from './reference-check.js';
import { takeOwn } from './shop-keys.js';
import { storedForm } from './stored-form.js';

/** Mall settings the product rules depend on (the seed's "global-edition mall" and age verification). */
export interface MallSettings {
  /** A global-edition mall: `shipping_scope` must be C and `image_upload_type` C is refused. */
  readonly globalEdition: boolean;
  /** Orders are restricted by age verification, so `adult_certification` T is accepted. */
  readonly ageVerification: boolean;
  /** How many shops the (multi-language) mall has: shops 1 to `shops` share one catalogue. */
  readonly shops: number;
}

/** Product numbers are issued after this one. */
const firstProductNo = 9;

/** The eight-character product code of a product number (`P000003C`). */
export const productCode = (productNo: number) => `P${productNo.toString(36).toUpperCase().padStart(7, '0')}`;

/** The icons of a new product: none until it is placed or sells out. */
const noListIcons = { soldout_icon: false, recommend_icon: false, new_icon: false };

/** What the product service works with. */
export interface ProductServiceContext {
  readonly store: SandboxStore;
  readonly shapes: RecordShapes;
  readonly directory: ProductDirectory;
  readonly placements: PlacementService;
  /** The mall's clock: created and updated dates. */
  readonly clock: () => number;
  readonly settings: MallSettings;
  /** The check of the fields a write's request declares as naming other records. */
  readonly references: RequestReferenceCheck;
}

/** A stored product as shop `shopNo` shows it: its own prices and placements over the shared record. */
function inShop(entry: StoredProduct, shopNo: number): ProductRecord {
  if (shopNo === 1) return entry.record.shop_no === 1 ? entry.record : { ...entry.record, shop_no: 1 };
  const own = entry.shopPrices?.[shopNo];
  const placed = { category: [], main: [], ...entry.shopPlacements?.[shopNo] };
  const record = { ...entry.record, ...own, ...placed, shop_no: shopNo } as ProductRecord;
  return own ? Object.assign(record, priceFields(record)) : record;
}

/** The stored product (a bundle one when `bundle`), or a 404. */
function storedProduct({ directory }: ProductServiceContext, productNo: number, bundle: boolean) {
  const entry = directory.stored(productNo);
  if (!entry || (bundle && !entry.bundle))
    throw notFound(`${bundle ? 'Bundle product' : 'Product'} ${productNo} does not exist.`);
  return entry;
}

/** The product as shop `shopNo` shows it, or a 404. */
const productIn = (ctx: ProductServiceContext, productNo: number, bundle: boolean, shopNo = 1) =>
  inShop(storedProduct(ctx, productNo, bundle), shopNo);

const schemaOf = (bundle: boolean) => (bundle ? 'BundleProduct' : 'Product');

/** The request's fields the record stores, in its shapes. */
const storedFields = ({ shapes }: ProductServiceContext, bundle: boolean, request: Record<string, unknown>) =>
  shapes.acceptedFields(schemaOf(bundle), storedForm(request));

/** Products (`bundle` false), bundle products (true) or both (undefined), as stored. */
function allProducts({ store }: ProductServiceContext, bundle?: boolean) {
  const entries = store.all<StoredProduct>('product');
  return bundle === undefined ? entries : entries.filter((e) => e.bundle === bundle);
}

/**
 * Places the product in the categories of `add_category_no` (and their recommended and new lists),
 * and in exactly the main groups of `main` when the request sends it.
 */
function place(
  { placements }: ProductServiceContext,
  shopNo: number,
  productNo: number,
  request: Record<string, unknown>,
) {
  const items = Array.isArray(request.add_category_no) ? request.add_category_no : [];
  for (const item of items as { category_no: number; recommend?: string; new?: string }[]) {
    placements.addToCategory(shopNo, item.category_no, 1, [productNo]);
    if (item.recommend === 'T') placements.addToCategory(shopNo, item.category_no, 2, [productNo]);
    if (item.new === 'T') placements.addToCategory(shopNo, item.category_no, 3, [productNo]);
  }
  if (!Array.isArray(request.main)) return;
  const wanted = new Set(request.main as number[]);
  for (const main of placements.mains()) {
    const group = Number(main.display_group);
    const placed = placements.listMainProducts(group, shopNo).some((p) => p.product_no === productNo);
    if (wanted.has(group) && !placed) placements.addToMain(shopNo, group, [productNo]);
    if (!wanted.has(group) && placed) placements.removeFromMain(shopNo, group, productNo);
  }
}

function createProduct(
  ctx: ProductServiceContext,
  shopNo: number,
  request: Record<string, unknown>,
  bundle: boolean,
  createdAt?: number,
): ProductRecord {
  const { store, shapes, clock } = ctx;
  checkProduct(ctx, bundle ? 'createBundleProduct' : 'createProduct', request, undefined);
  const productNo = store.nextNumber('product_no', firstProductNo);
  const now = kstDateTime(createdAt ?? clock());
  const record = {
    ...shapes.newRecord(schemaOf(bundle), bundle ? 'createBundleProduct' : 'createProduct'),
    ...storedFields(ctx, bundle, request),
    shop_no: 1,
    product_no: productNo,
    product_code: productCode(productNo),
    product_name: String(request.product_name),
    sold_out: 'F',
    list_icon: noListIcons,
    ...(bundle ? {} : { price: request.price ?? request.supply_price ?? '0.00' }),
    category: [],
    main: [],
    created_date: now,
    updated_date: now,
  } as ProductRecord;
  const options = optionsOfRequest(request);
  if (options.length > 0) Object.assign(record, { has_option: 'T', option_type: 'C' });
  Object.assign(
    record,
    request.price_excluding_tax === undefined ? priceFields(record) : {},
    bundle ? bundleParts((no) => productIn(ctx, no, false), request) : {},
  );
  store.put('product', String(productNo), { bundle, record, ...(options.length > 0 ? { options } : {}) });
  place(ctx, shopNo, productNo, request);
  return productIn(ctx, productNo, bundle, shopNo);
}

function updateProduct(
  ctx: ProductServiceContext,
  productNo: number,
  shopNo: number,
  request: Record<string, unknown>,
  bundle: boolean,
): ProductRecord {
  const { store, shapes, clock, placements } = ctx;
  const entry = storedProduct(ctx, productNo, bundle);
  const current = entry.record;
  checkProduct(
    ctx,
    bundle ? 'updateBundleProduct' : 'updateProduct',
    request,
    inShop(entry, shopNo),
    productNo,
  );
  const accepted = storedFields(ctx, bundle, request);
  // What a shop other than the default one keeps for itself (`x-per-shop`: the price); a shop
  // that never set its own follows the default shop. Its categories and main groups are its own
  // placements (placement-service.ts); everything else is shared by all shops.
  const shopPrices = takeOwn(accepted, shapes.perShopAttributes(schemaOf(bundle)), shopNo, entry.shopPrices);
  const record = {
    ...current,
    ...accepted,
    shop_no: 1,
    product_no: productNo,
    product_code: current.product_code,
    created_date: current.created_date,
    category: current.category,
    main: current.main,
    updated_date: kstDateTime(clock()),
  } as ProductRecord;
  const repriced = ['price', 'tax_type', 'tax_amount'].some((field) => field in request);
  Object.assign(
    record,
    request.price_excluding_tax === undefined && repriced ? priceFields(record) : {},
    iconPeriod(request, current),
    bundle ? bundleParts((no) => productIn(ctx, no, false), request, current) : {},
  );
  store.put('product', String(productNo), {
    ...entry,
    bundle,
    record,
    ...(shopPrices ? { shopPrices } : {}),
  });
  for (const no of categoriesToDelete(request) as number[])
    placements.removeFromCategory(shopNo, no, productNo, 1);
  place(ctx, shopNo, productNo, request);
  return productIn(ctx, productNo, bundle, shopNo);
}

/** Deletes a product that no bundle has as a component; it leaves every placement and related list. */
function deleteProduct(ctx: ProductServiceContext, productNo: number, bundle: boolean): void {
  const { store, placements, directory } = ctx;
  productIn(ctx, productNo, bundle);
  const usedBy = store
    .all<StoredProduct>('product')
    .filter(
      (e) =>
        e.bundle &&
        Array.isArray(e.record.bundle_product_components) &&
        e.record.bundle_product_components.some((c: { product_no: number }) => c.product_no === productNo),
    )
    .map((e) => e.record.product_no);
  if (usedBy.length > 0)
    throw invalidFields([
      { location: 'path', name: 'product_no', message: `is a component of bundle ${usedBy.join(', ')}` },
    ]);
  placements.forgetProduct(productNo);
  store.delete('product', String(productNo));
  for (const entry of store.all<StoredProduct>('product')) {
    const related = entry.record.relational_product;
    if (Array.isArray(related) && related.some((r: { product_no: number }) => r.product_no === productNo))
      directory.patch(
        entry.record.product_no,
        { relational_product: related.filter((r: { product_no: number }) => r.product_no !== productNo) },
        1,
      );
  }
}

/** The product service of one mall over its context. */
export function createProductService(ctx: ProductServiceContext) {
  const views = derivedFrom(ctx.store, ['product'], () => new Map<string, readonly ProductRecord[]>());
  const bound = boundTo(ctx);
  return {
    settings: ctx.settings,
    /** The product's record (as the default shop shows it), if it exists. */
    find: ctx.directory.find,
    /** The product as shop `shopNo` (default 1) shows it. */
    get: bound(productIn),
    isBundle: (productNo: number) => ctx.directory.stored(productNo)?.bundle === true,
    /** The options of a product (empty when it has none or does not exist). */
    optionsOf: (productNo: number): readonly OptionInput[] => ctx.directory.stored(productNo)?.options ?? [],
    all: bound(allProducts),
    /**
     * Products (`bundle` false), bundle products (true) or both (undefined) in list order: by `sort`
     * (default: by number), ties by number. Views are kept until the next product write, so
     * repeated lists neither copy nor sort the table.
     */
    ordered(
      bundle: boolean | undefined,
      sort: string | undefined,
      descending: boolean,
      shopNo = 1,
    ): readonly ProductRecord[] {
      const key = `${String(bundle)}|${sort ?? ''}|${descending}|${shopNo}`;
      return cached(views(), key, () =>
        sortProducts(
          allProducts(ctx, bundle).map((e) => inShop(e, shopNo)),
          sort,
          descending,
        ),
      );
    },
    create: bound(createProduct),
    update: bound(updateProduct),
    delete: bound(deleteProduct),
  };
}

/** The products of one mall (see {@link createProductService}). */
export type ProductService = ReturnType<typeof createProductService>;
