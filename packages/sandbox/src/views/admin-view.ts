// The admin API answered from one mall's catalogue: one handler per operation id (typed by the
// generated operations), mapping the converted parameters and body onto the category, product and
// placement services (a write inside one store transaction, so a refused write changes nothing) and
// the result onto the documented body (`{category: …}`, `{count: n}`). The webhook setting is the
// mall's stored reception status with the scopes the spec's events need (the sandbox has no consent
// step, so a mall shares them all); the delivery log is the mall's (events/, which also records the
// events of the writes the spec reports: mall.ts wraps these handlers).
// Operations without a handler here are answered by the mock from the spec's examples. A read
// (every handler not wrapped in a transaction) keeps its answers until the next write to the mall
// (kept-answers.ts).

import { eventTableNames, tableNames } from '@mall-api/mall-state';
import type { operations } from '@mall-api/specs/types/admin';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { CategoryRecord } from '../catalogue/category-service.js';
import type { AddOutcome } from '../catalogue/placement-context.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import { variantsOf } from '../catalogue/product-options.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { invalidFields } from '../catalogue/refusal.js';
import { deliveryLog } from '../events/event-deliveries.js';
import { logPage } from '../events/log-query.js';
import type { SandboxOutcome } from '../protocol.js';
import { created, deleted, found, partlyApplied, updated } from '../sandbox-result.js';
import type { RecentValues } from '../support/recent-values.js';
import { declaredMatcher, type FilterContext } from './declared-filters.js';
import type { AnyHandler, Handler, HandlerInput, HandlerMap } from './handler-types.js';
import { keptAnswers } from './kept-answers.js';
import {
  countMatches,
  embedded,
  type ListWindow,
  page,
  pageOfMatches,
  pickFields,
  type SoldAs,
} from './list-query.js';

/** The admin operations of the generated types. */
export type AdminOperations = operations;

type Fields = Record<string, unknown>;
/** What every admin call may carry: a shop in the query or in the body. */
type ShopCarrier = { query: { shop_no?: number }; body: unknown };

/** The shop a call names (`shop_no` of the body, else of the query; default 1), and where. */
export const shopOf = ({ query, body }: ShopCarrier): { shopNo: number; location: 'body' | 'query' } => {
  const shop = (body as { shop_no?: unknown } | undefined)?.shop_no;
  if (typeof shop === 'number') return { shopNo: shop, location: 'body' };
  return { shopNo: query.shop_no ?? 1, location: 'query' };
};

/**
 * Created when every product was added; partly applied when some were: the added ones under
 * `product` and each item's own outcome, in request order (answered, not refused: a refusal would
 * roll the additions back); refused when none could be.
 */
function addOutcome(outcome: AddOutcome, requested: readonly number[], body: Fields): SandboxOutcome {
  const message = (productNo: number) => `product ${productNo} does not exist`;
  const violations = outcome.refused.map(({ index, productNo }) => ({
    location: 'body' as const,
    name: `request.product_no/${index}`,
    message: message(productNo),
  }));
  if (outcome.added.length === 0) throw invalidFields(violations);
  const product = { ...body, product_no: outcome.added };
  if (violations.length === 0) return created({ product });
  const items = requested.map((productNo, index) =>
    outcome.refused.some((item) => item.index === index)
      ? { index, product_no: productNo, refused: { reason: 'invalid' as const, message: message(productNo) } }
      : { index, product_no: productNo },
  );
  return partlyApplied({ product }, items);
}

/**
 * The admin handlers over one mall's catalogue; `shapes` gives the query parameters' meanings and
 * `soldAs` how the collection API shows a product (its embedded discounts, benefits and hits).
 */
export function createAdminView(
  catalogue: Catalogue,
  shapes: RecordShapes,
  soldAs: (product: ProductRecord) => SoldAs,
  recent?: RecentValues,
): HandlerMap<AdminOperations> {
  const { store, categories, products, placements, webhooks } = catalogue;
  /** The handlers that write; every other one only reads, and keeps its answers. */
  const writers = new WeakSet<Handler<never>>();
  /** The handler inside one store transaction: a refusal it throws undoes its writes. */
  const write = <O>(handler: Handler<O>): Handler<O> => {
    const writer: Handler<O> = (input) => store.transaction(() => handler(input));
    writers.add(writer as Handler<never>);
    return writer;
  };

  /** The records `query` selects under the declared meanings of `operationId`'s parameters. */
  const matcher = <R>(operationId: string, query: object, context?: FilterContext<R>) =>
    declaredMatcher<R>(shapes.queryMeanings(operationId), query as Record<string, unknown>, context);
  const categoryList = (
    operationId: string,
    query: { readonly shop_no?: number; readonly [name: string]: unknown },
  ) => categories.all(query.shop_no ?? 1).filter(matcher<CategoryRecord>(operationId, query));
  const productContext: FilterContext<ProductRecord> = {
    derived: { variants: (product) => variantsOf(product, products.optionsOf(product.product_no)) },
    descendants: (_filter, categoryNo) =>
      categories.find(Number(categoryNo))
        ? categories.subtree(Number(categoryNo)).map((c) => c.category_no)
        : [categoryNo],
    subsets: { bundle: (product, value) => products.isBundle(product.product_no) === (value === 'T') },
  };
  type ProductListQuery = ListWindow & {
    shop_no?: number;
    sort?: string;
    order?: string;
    fields?: readonly string[];
    embed?: readonly string[];
  };
  /** A product as a query shows it: the record itself unless `fields` or `embed` change it. */
  const productView = (
    product: ProductRecord,
    query: { fields?: readonly string[]; embed?: readonly string[] },
  ): Record<string, unknown> => {
    const picked = pickFields(product, query.fields, 'product_no');
    if (!query.embed || query.embed.length === 0) return picked;
    return { ...picked, ...embedded(product, products.optionsOf(product.product_no), query.embed, soldAs) };
  };
  const productPage = (operationId: string, query: ProductListQuery, bundle?: boolean) =>
    pageOfMatches(
      products.ordered(bundle, query.sort, query.order === 'desc', query.shop_no ?? 1),
      matcher(operationId, query, productContext),
      query,
      10,
    ).map((p) => productView(p, query));
  const productCount = (operationId: string, query: object) =>
    countMatches(products.ordered(undefined, undefined, false), matcher(operationId, query, productContext));
  const categoryView = (category: CategoryRecord, query: { fields?: readonly string[] }) =>
    pickFields(category, query.fields, 'category_no');

  /** Get, create, update and delete of products or bundle products, answered under `key`. */
  type ProductOp<Get, Create, Update, Delete> = {
    get: Handler<Get>;
    create: Handler<Create>;
    update: Handler<Update>;
    delete: Handler<Delete>;
  };
  const productOperations = <
    Get extends AdminOperations['getProduct' | 'getBundleProduct'],
    Create extends AdminOperations['createProduct' | 'createBundleProduct'],
    Update extends AdminOperations['updateProduct' | 'updateBundleProduct'],
    Delete extends AdminOperations['deleteProduct' | 'deleteBundleProduct'],
  >(
    key: 'product' | 'bundleproduct',
    bundle: boolean,
  ): ProductOp<Get, Create, Update, Delete> => ({
    get: (input) => {
      const { path, query } = input as HandlerInput<AdminOperations['getProduct']>;
      return found({
        [key]: productView(products.get(path.product_no, bundle, shopOf(input).shopNo), query),
      });
    },
    create: write((input) => {
      const { body } = input as HandlerInput<AdminOperations['createProduct']>;
      return created({ [key]: products.create(shopOf(input).shopNo, body.request, bundle) });
    }),
    update: write((input) => {
      const { path, body } = input as HandlerInput<AdminOperations['updateProduct']>;
      return updated({ [key]: products.update(path.product_no, shopOf(input).shopNo, body.request, bundle) });
    }),
    delete: write((input) => {
      const { path } = input as HandlerInput<AdminOperations['deleteProduct']>;
      products.delete(path.product_no, bundle);
      return deleted({ [key]: { product_no: path.product_no } });
    }),
  });
  const plain = productOperations<
    AdminOperations['getProduct'],
    AdminOperations['createProduct'],
    AdminOperations['updateProduct'],
    AdminOperations['deleteProduct']
  >('product', false);
  const bundles = productOperations<
    AdminOperations['getBundleProduct'],
    AdminOperations['createBundleProduct'],
    AdminOperations['updateBundleProduct'],
    AdminOperations['deleteBundleProduct']
  >('bundleproduct', true);

  const handlers: HandlerMap<AdminOperations> = {
    // Categories
    listCategories: ({ query }) =>
      found({
        categories: page(categoryList('listCategories', query), query, 10).map((c) => categoryView(c, query)),
      }),
    countCategories: ({ query }) => found({ count: categoryList('countCategories', query).length }),
    getCategory: ({ path, query }) =>
      found({ category: categoryView(categories.get(path.category_no, query.shop_no ?? 1), query) }),
    createCategory: write((input) =>
      created({ category: categories.create(shopOf(input).shopNo, input.body.request) }),
    ),
    updateCategory: write((input) =>
      updated({
        category: categories.update(input.path.category_no, shopOf(input).shopNo, input.body.request),
      }),
    ),
    deleteCategory: write(({ path }) => {
      catalogue.removeCategory(path.category_no);
      return deleted({ category: { category_no: path.category_no } });
    }),
    listCategoryDecorationImages: ({ path, query }) =>
      found({ decorationimage: categories.decoration(path.category_no, query.shop_no ?? 1) }),
    updateCategoryDecorationImages: write((input) =>
      updated({
        decorationimage: categories.updateDecoration(
          input.path.category_no,
          shopOf(input).shopNo,
          input.body.request,
        ),
      }),
    ),
    listCategorySeo: ({ path, query }) =>
      found({ seo: categories.seo(path.category_no, query.shop_no ?? 1) }),
    updateCategorySeo: write((input) =>
      updated({
        seo: categories.updateSeo(input.path.category_no, shopOf(input).shopNo, input.body.request),
      }),
    ),

    // Category products
    listCategoryProducts: ({ path, query }) => {
      const listed = placements.listCategoryProducts(
        path.category_no,
        query.display_group ?? 1,
        query.shop_no ?? 1,
      );
      return found({ products: listed.slice(0, query.limit ?? 50000) });
    },
    countCategoryProducts: ({ path, query }) =>
      found({
        count: placements.listCategoryProducts(path.category_no, query.display_group ?? 1, query.shop_no ?? 1)
          .length,
      }),
    createCategoryProduct: write((input) => {
      const { shopNo } = shopOf(input);
      const { request } = input.body;
      const group = request.display_group ?? 1;
      const outcome = placements.addToCategory(shopNo, input.path.category_no, group, request.product_no);
      return addOutcome(outcome, request.product_no, { shop_no: shopNo, display_group: group });
    }),
    updateCategoryProduct: write((input) => {
      const { request } = input.body;
      const product = placements.updateCategoryPlacement(
        shopOf(input).shopNo,
        input.path.category_no,
        request.display_group,
        request.product_no,
        {
          ...(request.sequence !== undefined ? { sequence: request.sequence } : {}),
          ...(request.auto_sort !== undefined ? { auto_sort: request.auto_sort } : {}),
          ...(request.fixed_sort !== undefined ? { fixed_sort: request.fixed_sort } : {}),
        },
      );
      return updated({ product });
    }),
    deleteCategoryProduct: write(({ path, query }) => {
      const group = query.display_group ?? 1;
      placements.removeFromCategory(query.shop_no ?? 1, path.category_no, path.product_no, group);
      return deleted({ product: { display_group: group, product_no: path.product_no } });
    }),

    // Main display groups
    listMains: ({ query }) =>
      found({ mains: placements.mains().map((main) => ({ ...main, shop_no: query.shop_no ?? 1 })) }),
    listMainProducts: ({ path, query }) =>
      found({ products: placements.listMainProducts(path.display_group, query.shop_no ?? 1) }),
    countMainProducts: ({ path, query }) =>
      found({ count: placements.listMainProducts(path.display_group, query.shop_no ?? 1).length }),
    createMainProduct: write((input) => {
      const { shopNo } = shopOf(input);
      const requested = input.body.request.product_no;
      const outcome = placements.addToMain(shopNo, input.path.display_group, requested);
      return addOutcome(outcome, requested, { shop_no: shopNo });
    }),
    updateMainProduct: write((input) => {
      const { shopNo } = shopOf(input);
      const order = input.body.request.product_no;
      const fixed = input.body.request.fix_product_no ?? [];
      placements.reorderMain(shopNo, input.path.display_group, order, fixed);
      return updated({ product: { shop_no: shopNo, product_no: order, fix_product_no: fixed } });
    }),
    deleteMainProduct: write(({ path, query }) => {
      placements.removeFromMain(query.shop_no ?? 1, path.display_group, path.product_no);
      return deleted({ product: { shop_no: query.shop_no ?? 1, product_no: path.product_no } });
    }),

    // Products
    listProducts: ({ query }) => found({ products: productPage('listProducts', query) }),
    countProducts: ({ query }) => found({ count: productCount('countProducts', query) }),
    getProduct: plain.get,
    createProduct: plain.create,
    updateProduct: plain.update,
    deleteProduct: plain.delete,

    // Bundle products
    listBundleProducts: ({ query }) =>
      found({ bundleproducts: productPage('listBundleProducts', query, true) }),
    getBundleProduct: bundles.get,
    createBundleProduct: bundles.create,
    updateBundleProduct: bundles.update,
    deleteBundleProduct: bundles.delete,

    // Webhooks
    getWebhookSetting: () =>
      found({ webhook: { scopes: shapes.eventScopes, reception_status: webhooks.receptionStatus() } }),
    updateWebhookSetting: write(({ body }) =>
      updated({ webhook: { reception_status: webhooks.setReceptionStatus(body.request.reception_status) } }),
    ),
    listWebhookLogs: ({ query }) =>
      found({ logs: logPage(deliveryLog(store), shapes.queryMeanings('listWebhookLogs'), query) }),
  };
  return withShopCheck(
    keepingReads(
      handlers,
      writers,
      keptAnswers(store, [...tableNames, ...eventTableNames], answerCapacity, recent),
    ),
    products.settings.shops,
  );
}

/** How many read answers a mall keeps (the same call is answered from them until any write). */
const answerCapacity = 64;

/** The handlers with every one not in `writers` keeping its answers. */
function keepingReads(
  handlers: HandlerMap<AdminOperations>,
  writers: WeakSet<Handler<never>>,
  kept: (operationId: string, read: AnyHandler) => AnyHandler,
): HandlerMap<AdminOperations> {
  return Object.fromEntries(
    Object.entries(handlers).map(([operationId, handler]) => [
      operationId,
      writers.has(handler as Handler<never>) ? handler : kept(operationId, handler as AnyHandler),
    ]),
  ) as HandlerMap<AdminOperations>;
}

/** Every operation names a shop of the mall: shops 1 to `shops` share the catalogue. */
function withShopCheck(handlers: HandlerMap<AdminOperations>, shops: number): HandlerMap<AdminOperations> {
  return Object.fromEntries(
    Object.entries(handlers).map(([operationId, handler]) => [
      operationId,
      ((input: ShopCarrier & { path: unknown }) => {
        const { shopNo, location } = shopOf(input);
        if (shopNo > shops)
          throw invalidFields([
            {
              location,
              name: 'shop_no',
              message: `shop ${shopNo} does not exist; the mall has shop${shops === 1 ? ' 1' : `s 1 to ${shops}`}`,
            },
          ]);
        return (handler as AnyHandler)(input);
      }) as AnyHandler,
    ]),
  ) as HandlerMap<AdminOperations>;
}
