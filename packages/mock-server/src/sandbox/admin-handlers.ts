// The admin API answered from the sandbox: one handler per operationId, mapping the request onto
// the category, product and placement services inside one store transaction (so a refused write
// changes nothing) and the result onto the documented envelope (`{category: …}`, `{count: n}`).
// Operations without a handler here keep the mock's prepared responses.

import { errorEnvelope } from '../error-envelope.js';
import type { CategoryRecord, CategoryService } from './category-service.js';
import type { SandboxHandler, SandboxHandlers, SandboxRequest } from './handler-types.js';
import {
  categoryMatcher,
  countMatches,
  embedded,
  integer,
  page,
  pageOfMatches,
  pickFields,
  productMatcher,
  type Query,
  single,
} from './list-query.js';
import type { AddOutcome, PlacementService } from './placement-service.js';
import { variantsOf } from './product-options.js';
import type { ProductRecord, ProductService } from './product-service.js';
import { invalidFields } from './sandbox-error.js';
import type { SandboxStore } from './store.js';

/** The services the admin handlers work on. */
export interface AdminServices {
  store: SandboxStore;
  categories: CategoryService;
  products: ProductService;
  placements: PlacementService;
}

type Fields = Record<string, unknown>;

const pathNumber = (request: SandboxRequest, name: string) => Number(request.pathParameters[name]);
/** The shop a request names (`shop_no` of the body, else of the query; default 1), and where. */
const shopOf = (request: SandboxRequest): { shopNo: number; location: 'body' | 'query' } => {
  const body = request.body as { shop_no?: unknown } | undefined;
  if (typeof body?.shop_no === 'number') return { shopNo: body.shop_no, location: 'body' };
  return { shopNo: integer(request.query, 'shop_no', 1) ?? 1, location: 'query' };
};
/** A write's shop and the fields of its `request` object. */
const bodyOf = (request: SandboxRequest): { shopNo: number; fields: Fields } => ({
  shopNo: shopOf(request).shopNo,
  fields: ((request.body as { request?: unknown } | undefined)?.request ?? {}) as Fields,
});
const ok = (body: unknown, status = 200) => ({ status, body });

/** 201 when every product was added, 207 when some were, 422 when none could be. */
function addReply(outcome: AddOutcome, body: Fields) {
  const violations = outcome.refused.map(({ index, productNo }) => ({
    location: 'body' as const,
    name: `request.product_no/${index}`,
    message: `product ${productNo} does not exist`,
  }));
  if (outcome.added.length === 0) throw invalidFields(violations);
  if (violations.length > 0) {
    // A partial write is kept: answered, not thrown (a throw would roll the additions back).
    const total = outcome.added.length + violations.length;
    return ok(
      errorEnvelope(
        207,
        `${outcome.added.length} of ${total} products were added; see violations for the others.`,
        {
          violations,
        },
      ),
      207,
    );
  }
  return ok({ product: { ...body, product_no: outcome.added } }, 201);
}

export function createAdminHandlers({
  store,
  categories,
  products,
  placements,
}: AdminServices): SandboxHandlers {
  const write =
    (handler: SandboxHandler): SandboxHandler =>
    (request) =>
      store.transaction(() => handler(request));

  const categoryList = (query: Query) => categories.all().filter(categoryMatcher(query));
  const productContext = {
    categoriesFor: (categoryNo: number, withSub: boolean) =>
      new Set(
        withSub && categories.find(categoryNo)
          ? categories.subtree(categoryNo).map((c) => c.category_no)
          : [categoryNo],
      ),
    isBundle: (productNo: number) => products.isBundle(productNo),
    customVariantCodes: (product: ProductRecord) =>
      variantsOf(product, products.optionsOf(product.product_no)).flatMap((variant) =>
        typeof variant.custom_variant_code === 'string' ? [variant.custom_variant_code] : [],
      ),
  };
  const productPage = (query: Query, bundle?: boolean) =>
    pageOfMatches(
      products.ordered(
        bundle,
        single(query, 'sort'),
        single(query, 'order') === 'desc',
        integer(query, 'shop_no', 1),
      ),
      productMatcher(query, productContext),
      query,
      10,
    ).map((p) => productView(p, query));
  const productCount = (query: Query, bundle?: boolean) =>
    countMatches(products.ordered(bundle, undefined, false), productMatcher(query, productContext));
  const productView = (product: ProductRecord, query: Query) => ({
    ...pickFields(product, query, 'product_no'),
    ...embedded(product, products.optionsOf(product.product_no), query),
  });
  const categoryView = (category: CategoryRecord, query: Query) =>
    pickFields({ ...category, shop_no: integer(query, 'shop_no', 1) }, query, 'category_no');

  /** Get, create, update and delete of products or bundle products, answered under `key`. */
  const productOperations = (key: 'product' | 'bundleproduct', bundle: boolean) => ({
    get: (request: SandboxRequest) =>
      ok({
        [key]: productView(
          products.get(pathNumber(request, 'product_no'), bundle, shopOf(request).shopNo),
          request.query,
        ),
      }),
    create: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({ [key]: products.create(shopNo, fields, bundle) }, 201);
    }),
    update: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({ [key]: products.update(pathNumber(request, 'product_no'), shopNo, fields, bundle) });
    }),
    delete: write((request) => {
      const productNo = pathNumber(request, 'product_no');
      products.delete(productNo, bundle);
      return ok({ [key]: { product_no: productNo } });
    }),
  });
  const plain = productOperations('product', false);
  const bundles = productOperations('bundleproduct', true);

  const handlers: SandboxHandlers = {
    // Categories
    listCategories: ({ query }) =>
      ok({ categories: page(categoryList(query), query, 10).map((c) => categoryView(c, query)) }),
    countCategories: ({ query }) => ok({ count: categoryList(query).length }),
    getCategory: (request) =>
      ok({ category: categoryView(categories.get(pathNumber(request, 'category_no')), request.query) }),
    createCategory: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({ category: categories.create(shopNo, fields) }, 201);
    }),
    updateCategory: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({ category: categories.update(pathNumber(request, 'category_no'), shopNo, fields) });
    }),
    deleteCategory: write((request) => {
      const categoryNo = pathNumber(request, 'category_no');
      categories.delete(categoryNo);
      return ok({ category: { category_no: categoryNo } });
    }),
    listCategoryDecorationImages: (request) =>
      ok({ decorationimage: categories.decoration(pathNumber(request, 'category_no')) }),
    updateCategoryDecorationImages: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({
        decorationimage: categories.updateDecoration(pathNumber(request, 'category_no'), shopNo, fields),
      });
    }),
    listCategorySeo: (request) => ok({ seo: categories.seo(pathNumber(request, 'category_no')) }),
    updateCategorySeo: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      return ok({ seo: categories.updateSeo(pathNumber(request, 'category_no'), shopNo, fields) });
    }),

    // Category products
    listCategoryProducts: (request) => {
      const { query } = request;
      const listed = placements.listCategoryProducts(
        pathNumber(request, 'category_no'),
        integer(query, 'display_group', 1) ?? 1,
      );
      return ok({ products: listed.slice(0, integer(query, 'limit', 50000)) });
    },
    countCategoryProducts: (request) =>
      ok({
        count: placements.listCategoryProducts(
          pathNumber(request, 'category_no'),
          integer(request.query, 'display_group', 1) ?? 1,
        ).length,
      }),
    createCategoryProduct: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      const group = typeof fields.display_group === 'number' ? fields.display_group : 1;
      const outcome = placements.addToCategory(
        shopNo,
        pathNumber(request, 'category_no'),
        group,
        fields.product_no as number[],
      );
      return addReply(outcome, { shop_no: shopNo, display_group: group });
    }),
    updateCategoryProduct: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      const product = placements.updateCategoryPlacement(
        shopNo,
        pathNumber(request, 'category_no'),
        fields.display_group as number,
        fields.product_no as number,
        {
          ...(typeof fields.sequence === 'number' ? { sequence: fields.sequence } : {}),
          ...(typeof fields.auto_sort === 'string' ? { auto_sort: fields.auto_sort } : {}),
          ...(typeof fields.fixed_sort === 'string' ? { fixed_sort: fields.fixed_sort } : {}),
        },
      );
      return ok({ product });
    }),
    deleteCategoryProduct: write((request) => {
      const group = integer(request.query, 'display_group', 1) ?? 1;
      const productNo = pathNumber(request, 'product_no');
      placements.removeFromCategory(pathNumber(request, 'category_no'), productNo, group);
      return ok({ product: { display_group: group, product_no: productNo } });
    }),

    // Main display groups
    listMains: ({ query }) =>
      ok({ mains: placements.mains().map((main) => ({ ...main, shop_no: integer(query, 'shop_no', 1) })) }),
    listMainProducts: (request) =>
      ok({ products: placements.listMainProducts(pathNumber(request, 'display_group')) }),
    countMainProducts: (request) =>
      ok({ count: placements.listMainProducts(pathNumber(request, 'display_group')).length }),
    createMainProduct: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      const outcome = placements.addToMain(
        shopNo,
        pathNumber(request, 'display_group'),
        fields.product_no as number[],
      );
      return addReply(outcome, { shop_no: shopNo });
    }),
    updateMainProduct: write((request) => {
      const { shopNo, fields } = bodyOf(request);
      const order = fields.product_no as number[];
      const fixed = Array.isArray(fields.fix_product_no) ? (fields.fix_product_no as number[]) : [];
      placements.reorderMain(pathNumber(request, 'display_group'), order, fixed);
      return ok({ product: { shop_no: shopNo, product_no: order, fix_product_no: fixed } });
    }),
    deleteMainProduct: write((request) => {
      const productNo = pathNumber(request, 'product_no');
      placements.removeFromMain(pathNumber(request, 'display_group'), productNo);
      return ok({ product: { shop_no: integer(request.query, 'shop_no', 1), product_no: productNo } });
    }),

    // Products
    listProducts: ({ query }) =>
      ok({
        products: productPage(query),
      }),
    countProducts: ({ query }) => ok({ count: productCount(query) }),
    getProduct: plain.get,
    createProduct: plain.create,
    updateProduct: plain.update,
    deleteProduct: plain.delete,

    // Bundle products
    listBundleProducts: ({ query }) =>
      ok({
        bundleproducts: productPage(query, true),
      }),
    getBundleProduct: bundles.get,
    createBundleProduct: bundles.create,
    updateBundleProduct: bundles.update,
    deleteBundleProduct: bundles.delete,
  };
  // Every operation names a shop of the mall: shops 1 to `shops` share the catalogue.
  return Object.fromEntries(
    Object.entries(handlers).map(([operationId, handler]) => [
      operationId,
      (request: SandboxRequest) => {
        const { shopNo, location } = shopOf(request);
        if (shopNo > products.settings.shops)
          throw invalidFields([
            {
              location,
              name: 'shop_no',
              message: `shop ${shopNo} does not exist; the mall has shop${products.settings.shops === 1 ? ' 1' : `s 1 to ${products.settings.shops}`}`,
            },
          ]);
        return handler(request);
      },
    ]),
  );
}
