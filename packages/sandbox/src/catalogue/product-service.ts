// Products and bundle products of the sandbox mall. A create issues the number and the eight-
// character code, starts the record from the documented defaults of the create request (every other
// attribute null or absent, never an example value), stores every request field (in the record's
// shape, stored-form.ts), keeps the options its variants come from and places the product in the
// categories of `add_category_no` and the main groups of `main`; an update merges the request into
// the stored record under the rules on stored values and the mall's settings (global edition, age
// verification), and stores the icon period. `price_excluding_tax` is stored as sent, and computed
// from the price and tax when not sent. Integrity: every field the spec declares as naming another
// record (`x-refers-to`: categories, main groups, a bundle's components, related products) names one
// that exists and may be named (reference-check.ts), a product that is a bundle's component cannot be deleted,
// and a deleted product leaves every category and main group and every other product's related
// products. List views sorted by each order are kept until the next write.
import type { SandboxStore } from '@mall-api/mall-state';
import { bodyFieldName } from '@mall-api/spec-model';
import type { Violation } from '../protocol.js';
import { derivedFrom } from '../support/derived.js';
import { kstDateTime } from '../support/kst-time.js';
import type { PlacementService } from './placement-service.js';
import type { ProductDirectory, ProductRecord, StoredProduct } from './product-directory.js';
import { type OptionInput, optionsOfRequest } from './product-options.js';
import { sortProducts } from './product-order.js';
import type { RecordShapes } from './record-shapes.js';
import type { RequestReferenceCheck } from './reference-check.js';
import { invalidFields, notFound } from './refusal.js';
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

const violation = (name: string, message: string): Violation => ({ location: 'body', name, message });

/** The icons of a new product: none until it is placed or sells out. */
const noListIcons = { soldout_icon: false, recommend_icon: false, new_icon: false };

export interface ProductService {
  readonly settings: MallSettings;
  /** The product's record (as the default shop shows it), if it exists. */
  find(productNo: number): ProductRecord | undefined;
  /** The product as shop `shopNo` (default 1) shows it. */
  get(productNo: number, bundle: boolean, shopNo?: number): ProductRecord;
  all(bundle?: boolean): StoredProduct[];
  /**
   * Products (`bundle` false), bundle products (true) or both (undefined) in list order: by `sort`
   * (default: by number), ties by number. Views are kept until the next product write, so
   * repeated lists neither copy nor sort the table.
   */
  ordered(
    bundle: boolean | undefined,
    sort: string | undefined,
    descending: boolean,
    shopNo?: number,
  ): readonly ProductRecord[];
  isBundle(productNo: number): boolean;
  /** The options of a product (empty when it has none or does not exist). */
  optionsOf(productNo: number): readonly OptionInput[];
  create(
    shopNo: number,
    request: Record<string, unknown>,
    bundle: boolean,
    createdAt?: number,
  ): ProductRecord;
  update(productNo: number, shopNo: number, request: Record<string, unknown>, bundle: boolean): ProductRecord;
  delete(productNo: number, bundle: boolean): void;
}

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

export function createProductService({
  references,
  store,
  shapes,
  directory,
  placements,
  clock,
  settings,
}: ProductServiceContext): ProductService {
  const { stored } = directory;
  /** A stored product as shop `shopNo` shows it: its own prices and placements over the shared record. */
  const inShop = (entry: StoredProduct, shopNo: number): ProductRecord => {
    if (shopNo === 1) return entry.record.shop_no === 1 ? entry.record : { ...entry.record, shop_no: 1 };
    const own = entry.shopPrices?.[shopNo];
    const placed = { category: [], main: [], ...entry.shopPlacements?.[shopNo] };
    const record = { ...entry.record, ...own, ...placed, shop_no: shopNo } as ProductRecord;
    return own ? Object.assign(record, priceFields(record)) : record;
  };
  const storedProduct = (productNo: number, bundle: boolean) => {
    const entry = stored(productNo);
    if (!entry || (bundle && !entry.bundle))
      throw notFound(`${bundle ? 'Bundle product' : 'Product'} ${productNo} does not exist.`);
    return entry;
  };
  const get = (productNo: number, bundle: boolean, shopNo = 1) =>
    inShop(storedProduct(productNo, bundle), shopNo);
  const schemaOf = (bundle: boolean) => (bundle ? 'BundleProduct' : 'Product');
  /** The request's fields the record stores, in its shapes. */
  const storedFields = (bundle: boolean, request: Record<string, unknown>) =>
    shapes.acceptedFields(schemaOf(bundle), storedForm(request));

  /** State-dependent rules of a create or update; every violation at once, naming the field. */
  const check = (
    operationId: string,
    request: Record<string, unknown>,
    current: ProductRecord | undefined,
    productNo?: number,
  ) => {
    const violations: Violation[] = references(operationId, { request }, productNo).map(({ path, message }) =>
      violation(bodyFieldName(path), message),
    );
    if (request.adult_certification === 'T' && !settings.ageVerification)
      violations.push(
        violation(
          'request.adult_certification',
          'can be T only when the mall restricts orders by age verification (start the sandbox with --age-verification)',
        ),
      );
    if (settings.globalEdition) {
      const scope = request.shipping_scope ?? current?.shipping_scope;
      if (scope !== 'C')
        violations.push(
          violation('request.shipping_scope', 'must be C (export only) in a global-edition mall'),
        );
      if (request.image_upload_type === 'C')
        violations.push(
          violation('request.image_upload_type', 'C (web FTP) is not available in a global-edition mall'),
        );
    }
    if (current) {
      const feeByProduct = request.shipping_fee_by_product ?? current.shipping_fee_by_product;
      if (request.shipping_scope !== undefined && feeByProduct === 'F')
        violations.push(
          violation('request.shipping_scope', 'cannot be set while shipping_fee_by_product is F'),
        );
      const scope = request.shipping_scope ?? current.shipping_scope;
      if (scope === 'B' || scope === 'C')
        for (const field of ['hscode', 'clearance_category_code'])
          if (field in request && !request[field])
            violations.push(
              violation(`request.${field}`, `is required while shipping_scope is ${String(scope)}`),
            );
      const own = new Set(
        Array.isArray(current.category)
          ? current.category.map((c: { category_no: number }) => c.category_no)
          : [],
      );
      const deleteCategories = Array.isArray(request.delete_category_no)
        ? request.delete_category_no
        : request.delete_category_no === undefined
          ? []
          : [request.delete_category_no];
      deleteCategories.forEach((no: unknown, index) => {
        if (!own.has(no as number))
          violations.push(
            violation(
              `request.delete_category_no${Array.isArray(request.delete_category_no) ? `/${index}` : ''}`,
              `category ${String(no)} is not a category of the product`,
            ),
          );
      });
      if (
        request.product_used_month !== undefined &&
        (request.product_condition ?? current.product_condition) !== 'U'
      )
        violations.push(
          violation('request.product_used_month', 'applies only to used products (product_condition U)'),
        );
    }
    if (violations.length > 0) throw invalidFields(violations);
  };

  const bundleParts = (request: Record<string, unknown>, previous?: ProductRecord) => {
    const components = Array.isArray(request.bundle_product_components)
      ? request.bundle_product_components.map((item: { product_no: number; purchase_quantity: number }) => {
          const component = get(item.product_no, false);
          return {
            product_no: item.product_no,
            product_name: component.product_name,
            product_code: component.product_code,
            product_price: String(component.price ?? '0.00'),
            purchase_quantity: item.purchase_quantity,
          };
        })
      : (previous?.bundle_product_components as { product_price: string; purchase_quantity: number }[]);
    const salesInput = (request.bundle_product_sales ?? previous?.bundle_product_sales ?? {}) as Record<
      string,
      unknown
    >;
    const total = (components ?? []).reduce(
      (sum, c) => sum + Number(c.product_price) * Number(c.purchase_quantity),
      0,
    );
    const value = Number(salesInput.discount_value ?? 0);
    const discounted = salesInput.discount_type === 'V' ? total - value : total * (1 - value / 100);
    const sales = {
      discount_round_unit: 'F',
      discount_round_type: 'F',
      ...salesInput,
      discount_value: value.toFixed(2),
      set_product_price: Math.max(0, discounted).toFixed(2),
    };
    return { bundle_product_components: components, bundle_product_sales: sales };
  };

  const placeInCategories = (shopNo: number, productNo: number, request: Record<string, unknown>) => {
    const items = Array.isArray(request.add_category_no) ? request.add_category_no : [];
    for (const item of items as { category_no: number; recommend?: string; new?: string }[]) {
      placements.addToCategory(shopNo, item.category_no, 1, [productNo]);
      if (item.recommend === 'T') placements.addToCategory(shopNo, item.category_no, 2, [productNo]);
      if (item.new === 'T') placements.addToCategory(shopNo, item.category_no, 3, [productNo]);
    }
  };

  /** Places the product in exactly the main groups of `main`, when the request sends it. */
  const placeInMains = (shopNo: number, productNo: number, request: Record<string, unknown>) => {
    if (!Array.isArray(request.main)) return;
    const wanted = new Set(request.main as number[]);
    for (const main of placements.mains()) {
      const group = Number(main.display_group);
      const placed = placements.listMainProducts(group, shopNo).some((p) => p.product_no === productNo);
      if (wanted.has(group) && !placed) placements.addToMain(shopNo, group, [productNo]);
      if (!wanted.has(group) && placed) placements.removeFromMain(shopNo, group, productNo);
    }
  };

  /** `price_excluding_tax` computed from the price and tax (when the request does not send it). */
  const priceFields = (record: Record<string, unknown>) => {
    if (typeof record.price !== 'string') return {};
    const price = Number(record.price);
    const rate = typeof record.tax_amount === 'number' ? record.tax_amount : 10;
    return record.tax_type === 'A' || record.tax_type === undefined
      ? { price_excluding_tax: (price / (1 + rate / 100)).toFixed(2) }
      : { price_excluding_tax: price.toFixed(2) };
  };

  const all = (bundle?: boolean) => {
    const entries = store.all<StoredProduct>('product');
    return bundle === undefined ? entries : entries.filter((e) => e.bundle === bundle);
  };
  /**
   * `icon_show_period` from an update's icon-exposure fields: F clears it; a datetime sent sets that
   * end of the period (the other end kept).
   */
  const iconPeriod = (request: Record<string, unknown>, current: ProductRecord) => {
    if (request.use_icon_exposure_term === 'F') return { icon_show_period: {} };
    const begin = request.icon_exposure_begin_datetime;
    const end = request.icon_exposure_end_datetime;
    if (begin === undefined && end === undefined) return {};
    const period = typeof current.icon_show_period === 'object' ? current.icon_show_period : {};
    return {
      icon_show_period: {
        ...period,
        ...(begin === undefined ? {} : { start_date: begin }),
        ...(end === undefined ? {} : { end_date: end }),
      },
    };
  };
  const views = derivedFrom(store, ['product'], () => new Map<string, readonly ProductRecord[]>());

  return {
    settings,
    find: directory.find,
    get,
    isBundle: (productNo) => stored(productNo)?.bundle === true,
    optionsOf: (productNo) => stored(productNo)?.options ?? [],
    all,
    ordered(bundle, sort, descending, shopNo = 1) {
      const key = `${String(bundle)}|${sort ?? ''}|${descending}|${shopNo}`;
      let view = views().get(key);
      if (!view) {
        view = sortProducts(
          all(bundle).map((e) => inShop(e, shopNo)),
          sort,
          descending,
        );
        views().set(key, view);
      }
      return view;
    },
    create(shopNo, request, bundle, createdAt) {
      check(bundle ? 'createBundleProduct' : 'createProduct', request, undefined);
      const productNo = store.nextNumber('product_no', firstProductNo);
      const now = kstDateTime(createdAt ?? clock());
      const record = {
        ...shapes.newRecord(schemaOf(bundle), bundle ? 'createBundleProduct' : 'createProduct'),
        ...storedFields(bundle, request),
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
        bundle ? bundleParts(request) : {},
      );
      store.put('product', String(productNo), { bundle, record, ...(options.length > 0 ? { options } : {}) });
      placeInCategories(shopNo, productNo, request);
      placeInMains(shopNo, productNo, request);
      return get(productNo, bundle, shopNo);
    },
    update(productNo, shopNo, request, bundle) {
      const entry = storedProduct(productNo, bundle);
      const current = entry.record;
      check(bundle ? 'updateBundleProduct' : 'updateProduct', request, inShop(entry, shopNo), productNo);
      const accepted = storedFields(bundle, request);
      // What a shop other than the default one keeps for itself (`x-per-shop`: the price); a shop
      // that never set its own follows the default shop. Its categories and main groups are its own
      // placements (placement-service.ts); everything else is shared by all shops.
      const own =
        shopNo === 1
          ? {}
          : Object.fromEntries(
              shapes
                .perShopAttributes(schemaOf(bundle))
                .flatMap((f) => (f in accepted ? [[f, accepted[f]]] : [])),
            );
      for (const field of Object.keys(own)) delete accepted[field];
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
        bundle ? bundleParts(request, current) : {},
      );
      const shopPrices =
        Object.keys(own).length > 0
          ? { ...entry.shopPrices, [shopNo]: { ...entry.shopPrices?.[shopNo], ...own } }
          : entry.shopPrices;
      store.put('product', String(productNo), {
        ...entry,
        bundle,
        record,
        ...(shopPrices ? { shopPrices } : {}),
      });
      const deleteCategories = Array.isArray(request.delete_category_no)
        ? request.delete_category_no
        : request.delete_category_no === undefined
          ? []
          : [request.delete_category_no];
      for (const no of deleteCategories as number[]) placements.removeFromCategory(shopNo, no, productNo, 1);
      placeInCategories(shopNo, productNo, request);
      placeInMains(shopNo, productNo, request);
      return get(productNo, bundle, shopNo);
    },
    delete(productNo, bundle) {
      get(productNo, bundle);
      const usedBy = store
        .all<StoredProduct>('product')
        .filter(
          (e) =>
            e.bundle &&
            Array.isArray(e.record.bundle_product_components) &&
            e.record.bundle_product_components.some(
              (c: { product_no: number }) => c.product_no === productNo,
            ),
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
    },
  };
}
