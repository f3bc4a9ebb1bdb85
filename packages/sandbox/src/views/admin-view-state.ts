// What the admin handlers of one mall share (the state record admin-categories.ts,
// admin-placements.ts and admin-products.ts take): the catalogue, the record shapes, how the
// collection API shows a product, and the writing handlers (each in one store transaction).
import type { Catalogue } from '../catalogue/catalogue.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { declaredMatcher, type FilterContext } from './declared-filters.js';
import type { Handler } from './handler-types.js';
import type { SoldAs } from './list-query.js';

/** One mall's admin view, while its handlers are made. */
export interface AdminViewState {
  readonly catalogue: Catalogue;
  readonly shapes: RecordShapes;
  readonly soldAs: (product: ProductRecord) => SoldAs;
  /** The handlers that write; every other one only reads, and keeps its answers. */
  readonly writers: WeakSet<Handler<never>>;
}

/** The handler inside one store transaction: a refusal it throws undoes its writes. */
export function write<O>(state: AdminViewState, handler: Handler<O>): Handler<O> {
  const writer: Handler<O> = (input) => state.catalogue.store.transaction(() => handler(input));
  state.writers.add(writer as Handler<never>);
  return writer;
}

/** What every admin call may carry: a shop in the query or in the body. */
export type ShopCarrier = { query: { shop_no?: number }; body: unknown };

/** The shop a call names (`shop_no` of the body, else of the query; default 1), and where. */
export const shopOf = ({ query, body }: ShopCarrier): { shopNo: number; location: 'body' | 'query' } => {
  const shop = (body as { shop_no?: unknown } | undefined)?.shop_no;
  if (typeof shop === 'number') return { shopNo: shop, location: 'body' };
  return { shopNo: query.shop_no ?? 1, location: 'query' };
};

/** The records `query` selects under the declared meanings of `operationId`'s parameters. */
export const matcher = <R>(
  state: AdminViewState,
  operationId: string,
  query: object,
  context?: FilterContext<R>,
) => declaredMatcher<R>(state.shapes.queryMeanings(operationId), query as Record<string, unknown>, context);
