// The vocabulary the analytics reports are written in: the records a report counts (visits,
// orders, product touches, page hits), what rows add up, and the groupings by day, hour, product,
// ad, referring domain and search keyword.
import {
  noReferringDomain,
  type ProductTouch,
  type SimulatedOrder,
  type SimulatedVisit,
} from '../simulation/analytics-simulation.js';
import type { AnalyticsQuery, Grouping } from './analytics-report.js';

// Records a report can count.
export const visitsOf = (visits: readonly SimulatedVisit[]) => visits;
export const ordersOf = (visits: readonly SimulatedVisit[]): SimulatedOrder[] => {
  const orders: SimulatedOrder[] = [];
  for (const visit of visits) if (visit.order) orders.push(visit.order);
  return orders;
};
export const touchesOf = (visits: readonly SimulatedVisit[]): ProductTouch[] => {
  const touches: ProductTouch[] = [];
  for (const visit of visits) for (const touch of visit.products) touches.push(touch);
  return touches;
};
/** A page one visit viewed, how often, and whether the visit was a first visit. */
export interface PageHit {
  readonly url: string;
  views: number;
  readonly first: boolean;
}
export const pageHitsOf = (visits: readonly SimulatedVisit[]): PageHit[] => {
  const hits: PageHit[] = [];
  for (const visit of visits) {
    const start = hits.length;
    for (const url of visit.pages) {
      let i = start;
      while (i < hits.length && (hits[i] as PageHit).url !== url) i++;
      if (i < hits.length) (hits[i] as PageHit).views++;
      else hits.push({ url, views: 1, first: visit.first });
    }
  }
  return hits;
};

// What rows add up.
export const one = () => 1;
const orderOfVisit = (visit: SimulatedVisit) => (visit.order ? 1 : 0);
export const amountOfVisit = (visit: SimulatedVisit) => visit.order?.amount ?? 0;
export const buyerOfVisit = { distinct: (visit: SimulatedVisit) => visit.order?.buyer };
export const visitSales = { orders: orderOfVisit, amount: amountOfVisit };
export const orderSales = {
  buyers: { distinct: (order: SimulatedOrder) => order.buyer },
  orders: one,
  amount: (order: SimulatedOrder) => order.amount,
};
export const salesRow = (t: { orders: number; amount: number }) => ({
  order_count: t.orders,
  order_amount: t.amount,
});
export const buyersRow = (t: { buyers: number; orders: number; amount: number }) => ({
  buyers_count: t.buyers,
  ...salesRow(t),
});
export const hasOrders = (t: { orders: number }) => t.orders > 0;

/** A grouping that does not depend on the query. */
export const by =
  <R>(key: Grouping<R>['key'], fields: Grouping<R>['fields']) =>
  (): Grouping<R> => ({ key, fields });
/** One row per value of `of` (records without one are left out), that value in the field `name`. */
export const byField = <R>(name: string, of: (record: R) => string | number | undefined) =>
  by<R>(of, (record) => ({ [name]: of(record) ?? '' }));

const pad = (n: number) => String(n).padStart(2, '0');
/** One row per day, or per day and hour with `format_type=hour`. */
export const byDayOrHour = (query: AnalyticsQuery): Grouping<SimulatedVisit> =>
  query.format_type === 'hour'
    ? {
        key: (v) => `${v.day}T${pad(v.hour)}`,
        fields: (v) => ({ date: `${v.day}T${pad(v.hour)}:00:00+09:00`, hour: v.hour }),
      }
    : { key: (v) => v.day, fields: (v) => ({ date: `${v.day}T00:00:00+09:00` }) };
export const byDay = by<SimulatedVisit>(
  (v) => v.day,
  (v) => ({ date: `${v.day}T00:00:00+09:00` }),
);

export const adOf = (visit: SimulatedVisit) => visit.source.ad?.ad;
export const adKeyOf = (visit: SimulatedVisit) => visit.source.ad?.key;
export const adFields = (visit: SimulatedVisit) => ({
  ad: visit.source.ad?.ad ?? '',
  keyword: visit.source.ad?.keyword ?? '',
});
export const domainOf = (visit: SimulatedVisit) => visit.source.referrer?.domain ?? noReferringDomain;
/** The keyword of a keyword search ad; undefined for other visits. */
export const searchKeywordOf = (visit: SimulatedVisit) =>
  visit.source.ad?.engine === undefined ? undefined : visit.source.ad.keyword;
export const byProduct = <R extends { product: ProductTouch['product'] }>() =>
  by<R>(
    (r) => r.product.productNo,
    (r) => ({ product_no: r.product.productNo, product_name: r.product.name }),
  );
