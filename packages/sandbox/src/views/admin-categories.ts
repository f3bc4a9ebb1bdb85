// The admin API's category operations over one mall's catalogue: list, count, get, create, update
// and delete, and each category's decoration images and SEO settings.

import type { operations as AdminOperations } from '@mall-api/specs/types/admin';
import type { CategoryRecord } from '../catalogue/category-service.js';
import { created, deleted, found, updated } from '../sandbox-result.js';
import { type AdminViewState, matcher, shopOf, write } from './admin-view-state.js';
import type { HandlerMap } from './handler-types.js';
import { page, pickFields } from './list-query.js';

/** The handlers of the category operations. */
export function categoryHandlers(state: AdminViewState): HandlerMap<AdminOperations> {
  const { catalogue } = state;
  const { categories } = catalogue;
  const categoryList = (
    operationId: string,
    query: { readonly shop_no?: number; readonly [name: string]: unknown },
  ) => categories.all(query.shop_no ?? 1).filter(matcher<CategoryRecord>(state, operationId, query));
  const categoryView = (category: CategoryRecord, query: { fields?: readonly string[] }) =>
    pickFields(category, query.fields, 'category_no');

  return {
    // Categories
    listCategories: ({ query }) =>
      found({
        categories: page(categoryList('listCategories', query), query, 10).map((c) => categoryView(c, query)),
      }),
    countCategories: ({ query }) => found({ count: categoryList('countCategories', query).length }),
    getCategory: ({ path, query }) =>
      found({ category: categoryView(categories.get(path.category_no, query.shop_no ?? 1), query) }),
    createCategory: write(state, (input) =>
      created({ category: categories.create(shopOf(input).shopNo, input.body.request) }),
    ),
    updateCategory: write(state, (input) =>
      updated({
        category: categories.update(input.path.category_no, shopOf(input).shopNo, input.body.request),
      }),
    ),
    deleteCategory: write(state, ({ path }) => {
      catalogue.removeCategory(path.category_no);
      return deleted({ category: { category_no: path.category_no } });
    }),
    listCategoryDecorationImages: ({ path, query }) =>
      found({ decorationimage: categories.decoration(path.category_no, query.shop_no ?? 1) }),
    updateCategoryDecorationImages: write(state, (input) =>
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
    updateCategorySeo: write(state, (input) =>
      updated({
        seo: categories.updateSeo(input.path.category_no, shopOf(input).shopNo, input.body.request),
      }),
    ),
  };
}
