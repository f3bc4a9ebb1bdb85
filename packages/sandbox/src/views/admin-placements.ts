// The admin API's placement operations over one mall's catalogue: the products of a category's
// display groups and of the main display groups, listed, counted, added, reordered and removed.

import type { operations as AdminOperations } from '@mall-api/specs/types/admin';
import type { AddOutcome } from '../catalogue/placement-context.js';
import type { SandboxOutcome } from '../protocol.js';
import { created, deleted, found, invalidFields, partlyApplied, updated } from '../sandbox-result.js';
import { type AdminViewState, shopOf, write } from './admin-view-state.js';
import type { HandlerMap } from './handler-types.js';

type Fields = Record<string, unknown>;

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

/** The handlers of the placement operations. */
export function placementHandlers(state: AdminViewState): HandlerMap<AdminOperations> {
  const { placements } = state.catalogue;
  return {
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
    createCategoryProduct: write(state, (input) => {
      const { shopNo } = shopOf(input);
      const { request } = input.body;
      const group = request.display_group ?? 1;
      const outcome = placements.addToCategory(shopNo, input.path.category_no, group, request.product_no);
      return addOutcome(outcome, request.product_no, { shop_no: shopNo, display_group: group });
    }),
    updateCategoryProduct: write(state, (input) => {
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
    deleteCategoryProduct: write(state, ({ path, query }) => {
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
    createMainProduct: write(state, (input) => {
      const { shopNo } = shopOf(input);
      const requested = input.body.request.product_no;
      const outcome = placements.addToMain(shopNo, input.path.display_group, requested);
      return addOutcome(outcome, requested, { shop_no: shopNo });
    }),
    updateMainProduct: write(state, (input) => {
      const { shopNo } = shopOf(input);
      const order = input.body.request.product_no;
      const fixed = input.body.request.fix_product_no ?? [];
      placements.reorderMain(shopNo, input.path.display_group, order, fixed);
      return updated({ product: { shop_no: shopNo, product_no: order, fix_product_no: fixed } });
    }),
    deleteMainProduct: write(state, ({ path, query }) => {
      placements.removeFromMain(query.shop_no ?? 1, path.display_group, path.product_no);
      return deleted({ product: { shop_no: query.shop_no ?? 1, product_no: path.product_no } });
    }),
  };
}
