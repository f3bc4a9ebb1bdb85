// The admin API's product and bundle product operations over one mall's catalogue: list (with the
// declared query meanings, `fields` and `embed`), count, get, create, update and delete.

import type { operations as AdminOperations } from '@mall-api/specs/types/admin';
import type { ProductRecord } from '../catalogue/product-directory.js';
import { variantsOf } from '../catalogue/product-options.js';
import { created, deleted, found, updated } from '../sandbox-result.js';
import { type AdminViewState, matcher, shopOf, write } from './admin-view-state.js';
import type { FilterContext } from './declared-filters.js';
import type { AnyHandler, Handler, HandlerMap } from './handler-types.js';
import { countMatches, embedded, type ListWindow, pageOfMatches, pickFields } from './list-query.js';

/** The handlers of the product and bundle product operations. */
export function productHandlers(state: AdminViewState): HandlerMap<AdminOperations> {
  const { categories, products } = state.catalogue;
  const { soldAs } = state;
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
      matcher(state, operationId, query, productContext),
      query,
      10,
    ).map((p) => productView(p, query));
  const productCount = (operationId: string, query: object) =>
    countMatches(
      products.ordered(undefined, undefined, false),
      matcher(state, operationId, query, productContext),
    );
  /**
   * Get, create, update and delete of products (`bundle` false) or bundle products, answered under
   * `key`; typed as the product operations' handlers (a bundle product's input differs in its
   * request only, which the service takes as it is).
   */
  const productOperations = (key: 'product' | 'bundleproduct', bundle: boolean) => {
    const get: Handler<AdminOperations['getProduct']> = (input) =>
      found({
        [key]: productView(products.get(input.path.product_no, bundle, shopOf(input).shopNo), input.query),
      });
    const create: Handler<AdminOperations['createProduct']> = (input) =>
      created({ [key]: products.create(shopOf(input).shopNo, input.body.request, bundle) });
    const update: Handler<AdminOperations['updateProduct']> = (input) =>
      updated({
        [key]: products.update(input.path.product_no, shopOf(input).shopNo, input.body.request, bundle),
      });
    const remove: Handler<AdminOperations['deleteProduct']> = ({ path }) => {
      products.delete(path.product_no, bundle);
      return deleted({ [key]: { product_no: path.product_no } });
    };
    return {
      get,
      create: write(state, create),
      update: write(state, update),
      delete: write(state, remove),
    } as {
      readonly [Op in 'get' | 'create' | 'update' | 'delete']: AnyHandler;
    };
  };
  const plain = productOperations('product', false);
  const bundles = productOperations('bundleproduct', true);

  return {
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
  };
}
