// The analytics API in sandbox mode: every operation in the report table answers from the same
// simulated visits of the queried mall, shop and days (analytics-simulation.ts), one table entry per operation saying
// what it counts and how it groups (analytics-report.ts does the rest). Because every report
// aggregates the same visits and the orders they ended in, the figures agree across endpoints:
// orders and revenue by product, payment method, hour, member status, referring domain and order
// are the same totals; ad, keyword and ad-keyword sales are the ad visits' share of them; visits by
// ad medium, by referring domain and by day are the same visits; page views by day are the views
// of the pages viewed; product views are the views of the product detail pages. The query's
// `mall_id` must be the mall's own id: another mall's statistics are refused as forbidden (403), as
// the platform answers a credential reading what it may not (our reading); `device_type` keeps the
// visits of one device.

import type { operations } from '@mall-api/specs/types/analytics';
import type { Catalogue } from '../catalogue/catalogue.js';
import { forbidden } from '../catalogue/refusal.js';
import { found } from '../sandbox-result.js';
import { createSimulatedDays, type VisitSelection } from '../simulation/analytics-days.js';
import {
  noChannel,
  noReferringDomain,
  type ProductTouch,
  type SimulatedOrder,
  type SimulatedVisit,
} from '../simulation/analytics-simulation.js';
import type { RecentValues } from '../support/recent-values.js';
import {
  type AnalyticsQuery,
  type AnalyticsReport,
  average,
  defineReport,
  type Grouping,
  percent,
} from './analytics-report.js';
import type { AnyHandler, HandlerMap } from './handler-types.js';
import { keptAnswers } from './kept-answers.js';

type Query = AnalyticsQuery;
/** The analytics operations of the generated types. */
export type AnalyticsOperations = operations;

// Records a report can count.
const visitsOf = (visits: readonly SimulatedVisit[]) => visits;
const ordersOf = (visits: readonly SimulatedVisit[]): SimulatedOrder[] => {
  const orders: SimulatedOrder[] = [];
  for (const visit of visits) if (visit.order) orders.push(visit.order);
  return orders;
};
const touchesOf = (visits: readonly SimulatedVisit[]): ProductTouch[] => {
  const touches: ProductTouch[] = [];
  for (const visit of visits) for (const touch of visit.products) touches.push(touch);
  return touches;
};
/** A page one visit viewed, how often, and whether the visit was a first visit. */
interface PageHit {
  readonly url: string;
  views: number;
  readonly first: boolean;
}
const pageHitsOf = (visits: readonly SimulatedVisit[]): PageHit[] => {
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
const one = () => 1;
const orderOfVisit = (visit: SimulatedVisit) => (visit.order ? 1 : 0);
const amountOfVisit = (visit: SimulatedVisit) => visit.order?.amount ?? 0;
const buyerOfVisit = { distinct: (visit: SimulatedVisit) => visit.order?.buyer };
const visitSales = { orders: orderOfVisit, amount: amountOfVisit };
const orderSales = {
  buyers: { distinct: (order: SimulatedOrder) => order.buyer },
  orders: one,
  amount: (order: SimulatedOrder) => order.amount,
};
const salesRow = (t: { orders: number; amount: number }) => ({
  order_count: t.orders,
  order_amount: t.amount,
});
const buyersRow = (t: { buyers: number; orders: number; amount: number }) => ({
  buyers_count: t.buyers,
  ...salesRow(t),
});
const hasOrders = (t: { orders: number }) => t.orders > 0;

/** A grouping that does not depend on the query. */
const by =
  <R>(key: Grouping<R>['key'], fields: Grouping<R>['fields']) =>
  (): Grouping<R> => ({ key, fields });

const pad = (n: number) => String(n).padStart(2, '0');
/** One row per day, or per day and hour with `format_type=hour`. */
const byDayOrHour = (query: Query): Grouping<SimulatedVisit> =>
  query.format_type === 'hour'
    ? {
        key: (v) => `${v.day}T${pad(v.hour)}`,
        fields: (v) => ({ date: `${v.day}T${pad(v.hour)}:00:00+09:00`, hour: v.hour }),
      }
    : { key: (v) => v.day, fields: (v) => ({ date: `${v.day}T00:00:00+09:00` }) };
const byDay = by<SimulatedVisit>(
  (v) => v.day,
  (v) => ({ date: `${v.day}T00:00:00+09:00` }),
);

const adOf = (visit: SimulatedVisit) => visit.source.ad?.ad;
const adKeyOf = (visit: SimulatedVisit) => visit.source.ad?.key;
const adFields = (visit: SimulatedVisit) => ({
  ad: visit.source.ad?.ad ?? '',
  keyword: visit.source.ad?.keyword ?? '',
});
const domainOf = (visit: SimulatedVisit) => visit.source.referrer?.domain ?? noReferringDomain;
/** The keyword of a keyword search ad; undefined for other visits. */
const searchKeywordOf = (visit: SimulatedVisit) =>
  visit.source.ad?.engine === undefined ? undefined : visit.source.ad.keyword;
const byProduct = <R extends { product: ProductTouch['product'] }>() =>
  by<R>(
    (r) => r.product.productNo,
    (r) => ({ product_no: r.product.productNo, product_name: r.product.name }),
  );

/** The table of the analytics operations; `categoryName` names a category (undefined once deleted). */
function analyticsReports(categoryName: (categoryNo: number) => string | undefined): {
  readonly [Op in keyof AnalyticsOperations]: AnalyticsReport;
} {
  return {
    listProductSales: defineReport({
      key: 'sales',
      records: ordersOf,
      grouping: byProduct<SimulatedOrder>(),
      measures: { orders: one, units: (o) => o.quantity, amount: (o) => o.amount },
      row: (t) => ({ order_count: t.orders, order_product_count: t.units, order_amount: t.amount }),
      sort: { key: 'order_amount', order: 'desc' },
    }),
    listProductViews: defineReport({
      key: 'view',
      records: touchesOf,
      grouping: byProduct<ProductTouch>(),
      measures: { views: (t) => t.views },
      row: (t) => ({ count: t.views }),
      sort: { key: 'count', order: 'desc' },
    }),
    listCartActions: defineReport({
      key: 'action',
      records: touchesOf,
      grouping: byProduct<ProductTouch>(),
      measures: { views: (t) => t.views, carts: (t) => t.carts },
      row: (t) => ({ count: t.views, add_cart_count: t.carts, add_cart_rate: percent(t.carts, t.views) }),
      sort: { key: 'count', order: 'desc' },
      decimals: ['add_cart_rate'],
    }),
    listProductCategoryDetails: defineReport({
      key: 'categorydetails',
      records: touchesOf,
      grouping: by<ProductTouch>(
        (t) =>
          t.categoryNo === undefined || categoryName(t.categoryNo) === undefined
            ? undefined
            : `${t.product.productNo}/${t.categoryNo}`,
        (t) => ({
          product_no: t.product.productNo,
          product_name: t.product.name,
          product_code: t.product.code,
          category_name: categoryName(t.categoryNo as number) ?? '',
          category_no: t.categoryNo as number,
        }),
      ),
      measures: {
        orders: (t) => (t.order ? 1 : 0),
        units: (t) => t.order?.quantity ?? 0,
        amount: (t) => t.order?.amount ?? 0,
        carts: (t) => t.carts,
      },
      row: (t) => ({
        sales_count_per_category: t.orders,
        sales_item_per_category: t.units,
        sales_price_per_category: t.amount,
        carts_count_per_category: t.carts,
      }),
      keep: (t) => t.orders > 0 || t.carts > 0,
      sort: {
        key: 'product_name',
        order: 'asc',
        aliases: {
          order_count: 'sales_count_per_category',
          order_product_count: 'sales_item_per_category',
          order_amount: 'sales_price_per_category',
        },
      },
      decimals: ['sales_price_per_category'],
    }),
    listOrderDetails: defineReport({
      key: 'orderdetails',
      records: (visits, query) => {
        const wanted = query.orderId;
        const orders = ordersOf(visits);
        return wanted === undefined ? orders : orders.filter((o) => o.id === wanted);
      },
      grouping: by<SimulatedOrder>(
        (o) => o.id,
        (o) => ({
          order_date: o.date,
          order_id: o.id,
          ad: o.source.ad?.ad ?? noChannel,
          keyword: o.source.ad?.keyword ?? '',
          medium: o.source.ad?.medium ?? '',
          campaign: o.source.ad?.campaign ?? '',
          content: o.source.ad?.content ?? '',
          payment_method: o.paymentMethod,
          order_amount: o.amount,
        }),
      ),
      measures: {},
      row: () => ({}),
      sort: { key: 'order_id', order: 'asc' },
    }),
    listPaymentMethodSales: defineReport({
      key: 'paymethods',
      records: ordersOf,
      grouping: by<SimulatedOrder>(
        (o) => o.paymentMethod,
        (o) => ({ payment_method: o.paymentMethod }),
      ),
      measures: orderSales,
      row: buyersRow,
      sort: { key: 'order_amount', order: 'desc' },
    }),
    listHourlySales: defineReport({
      key: 'times',
      records: ordersOf,
      grouping: by<SimulatedOrder>(
        (o) => o.hour,
        (o) => ({ hour: o.hour }),
      ),
      measures: orderSales,
      row: buyersRow,
      sort: { key: 'hour', order: 'asc' },
    }),
    listMemberSales: defineReport({
      key: 'sales',
      records: ordersOf,
      measures: {
        memberOrders: (o) => (o.member ? 1 : 0),
        memberAmount: (o) => (o.member ? o.amount : 0),
        guestOrders: (o) => (o.member ? 0 : 1),
        guestAmount: (o) => (o.member ? 0 : o.amount),
      },
      row: (t) => ({
        member_order_count: t.memberOrders,
        member_order_amount: t.memberAmount,
        nonmember_order_count: t.guestOrders,
        nonmember_order_amount: t.guestAmount,
      }),
    }),
    listSalesPerVisitor: defineReport({
      key: 'pervisitors',
      records: visitsOf,
      measures: { visits: one, amount: amountOfVisit, buyers: buyerOfVisit },
      row: (t) => ({
        order_amount_per_visitor: average(t.amount, t.visits),
        order_amount_per_buyer: average(t.amount, t.buyers),
      }),
      decimals: ['order_amount_per_visitor', 'order_amount_per_buyer'],
    }),
    listDailyActiveUsers: defineReport({
      key: 'dailyactive',
      records: visitsOf,
      grouping: byDay,
      measures: { users: (v) => (v.firstOfVisitor ? 1 : 0) },
      row: (t) => ({ user_count: t.users }),
      sort: { key: 'date', order: 'asc' },
    }),
    listPageViews: defineReport({
      key: 'pageview',
      records: visitsOf,
      grouping: byDayOrHour,
      measures: { views: (v) => v.pages.length },
      row: (t) => ({ page_view: t.views }),
      sort: { key: 'date', order: 'asc' },
    }),
    listUniqueVisitors: defineReport({
      key: 'unique',
      records: visitsOf,
      grouping: byDay,
      measures: { unique: (v) => (v.firstOfAddress ? 1 : 0) },
      row: (t) => ({ unique_visit_count: t.unique }),
      sort: { key: 'date', order: 'asc' },
    }),
    listVisitorViews: defineReport({
      key: 'view',
      records: visitsOf,
      grouping: byDayOrHour,
      measures: { visits: one, first: (v) => (v.first ? 1 : 0) },
      row: (t) => ({ visit_count: t.visits, first_visit_count: t.first, re_visit_count: t.visits - t.first }),
      sort: { key: 'date', order: 'asc' },
    }),
    listViewedPages: defineReport({
      key: 'view',
      records: pageHitsOf,
      grouping: by<PageHit>(
        (hit) => hit.url,
        (hit) => ({ url: hit.url }),
      ),
      measures: { views: (hit) => hit.views, visits: one, first: (hit) => (hit.first ? 1 : 0) },
      row: (t) => ({ count: t.views, visit_count: t.visits, first_visit_count: t.first }),
      sort: { key: 'count', order: 'desc' },
    }),
    listAdVisits: defineReport({
      key: 'ads',
      records: visitsOf,
      grouping: by(
        (v) => adOf(v) ?? noChannel,
        (v) => ({ ad: adOf(v) ?? noChannel }),
      ),
      measures: { visits: one },
      row: (t) => ({ visit_count: t.visits }),
      sort: { key: 'visit_count', order: 'desc' },
    }),
    listAdSales: defineReport({
      key: 'adsales',
      records: visitsOf,
      grouping: by(adOf, (v) => ({ ad: adOf(v) ?? '' })),
      measures: visitSales,
      row: salesRow,
      keep: hasOrders,
      sort: { key: 'order_amount', order: 'desc' },
    }),
    listAdKeywordSales: defineReport({
      key: 'adkeywordsales',
      records: visitsOf,
      grouping: by(adKeyOf, adFields),
      measures: visitSales,
      row: salesRow,
      keep: hasOrders,
      sort: { key: 'ad', order: 'asc' },
    }),
    listAdEffectDetails: defineReport({
      key: 'addetails',
      records: visitsOf,
      grouping: by(adKeyOf, adFields),
      measures: { visits: one, ...visitSales, buyers: buyerOfVisit },
      row: (t, context) => ({
        visit_count: t.visits,
        visit_rate: percent(t.visits, context.visits),
        purchase_count: t.orders,
        purchase_rate: percent(t.orders, t.visits),
        order_amount: t.amount,
        order_amount_per_visitor: average(t.amount, t.visits),
        order_amount_per_buyer: average(t.amount, t.buyers),
      }),
      sort: { key: 'ad', order: 'asc' },
      decimals: ['visit_rate', 'purchase_rate', 'order_amount_per_visitor', 'order_amount_per_buyer'],
    }),
    listReferringDomains: defineReport({
      key: 'domains',
      records: visitsOf,
      grouping: by(domainOf, (v) => ({ domain: domainOf(v) })),
      measures: { visits: one },
      row: (t) => ({ visit_count: t.visits }),
      sort: { key: 'visit_count', order: 'desc' },
    }),
    listReferringDomainSales: defineReport({
      key: 'domainsales',
      records: visitsOf,
      grouping: by(domainOf, (v) => ({ domain: domainOf(v) })),
      measures: visitSales,
      row: salesRow,
      keep: hasOrders,
      sort: { key: 'order_amount', order: 'desc' },
    }),
    listReferringUrls: defineReport({
      key: 'urls',
      records: visitsOf,
      grouping: by(
        (v) => v.source.referrer?.url,
        (v) => ({ url: v.source.referrer?.url ?? '' }),
      ),
      measures: { visits: one },
      row: (t) => ({ visit_count: t.visits }),
      sort: { key: 'visit_count', order: 'desc' },
    }),
    listKeywordVisits: defineReport({
      key: 'keywords',
      records: visitsOf,
      grouping: by(searchKeywordOf, (v) => ({ keyword: searchKeywordOf(v) ?? '' })),
      measures: { visits: one },
      row: (t) => ({ visit_count: t.visits }),
      sort: { key: 'visit_count', order: 'desc' },
    }),
    listKeywordSales: defineReport({
      key: 'keywordsales',
      records: visitsOf,
      grouping: by(searchKeywordOf, (v) => ({ keyword: searchKeywordOf(v) ?? '' })),
      measures: visitSales,
      row: salesRow,
      keep: hasOrders,
      sort: { key: 'order_amount', order: 'desc' },
    }),
    listKeywordDetails: defineReport({
      key: 'keyworddetails',
      records: visitsOf,
      grouping: by(
        (v) =>
          searchKeywordOf(v) === undefined ? undefined : `${v.source.ad?.keyword}\n${v.source.ad?.engine}`,
        (v) => ({ keyword: v.source.ad?.keyword ?? '', engine: v.source.ad?.engine ?? '' }),
      ),
      measures: { visits: one, ...visitSales, buyers: buyerOfVisit },
      row: (t) => ({
        visit_count: t.visits,
        purchase_count: t.orders,
        purchase_rate: percent(t.orders, t.visits),
        order_amount: t.amount,
        order_amount_per_visitor: average(t.amount, t.visits),
        order_amount_per_buyer: average(t.amount, t.buyers),
      }),
      sort: { key: 'keyword', order: 'asc' },
      decimals: ['purchase_rate', 'order_amount_per_visitor', 'order_amount_per_buyer'],
    }),
  };
}

/** The mall, shop, days and device a query selects (the simulation's seed is the query's `mall_id`). */
function selection(query: Query): VisitSelection {
  const device = query.device_type;
  return {
    mallId: query.mall_id ?? '',
    shopNo: query.shop_no ?? 1,
    startDate: query.start_date ?? '',
    endDate: query.end_date ?? '',
    device: device === 'pc' || device === 'mobile' ? device : 'total',
  };
}

/** How many computed report answers a mall keeps (the same query is answered from them). */
const answerCapacity = 256;

/**
 * The handlers of the analytics operations, one per report in the table, over one mall's products (displayed products from
 * their creation day on) and category names.
 */
export function createAnalyticsView(
  mallId: string,
  catalogue: Catalogue,
  recent?: RecentValues,
): HandlerMap<AnalyticsOperations> {
  const { store, products, categories } = catalogue;
  const days = createSimulatedDays(store, products, undefined, recent);
  const reports = analyticsReports((categoryNo) => categories.find(categoryNo)?.category_name);
  /** Answers already computed, by operation and query; new after any product or category write. */
  const kept = keptAnswers(store, ['product', 'category'], answerCapacity, recent);
  return Object.fromEntries(
    Object.entries(reports).map(([operationId, report]): [string, AnyHandler] => [
      operationId,
      kept(operationId, ({ query }) => {
        const converted = query as Query;
        if (converted.mall_id !== undefined && converted.mall_id !== mallId)
          throw forbidden(
            { location: 'query', name: 'mall_id', message: 'the credential may not read this mall' },
            `mall ${converted.mall_id} is not the mall this credential reads`,
          );
        return found({ [report.key]: report.rows(days.days(selection(converted)), converted) });
      }),
    ]),
  ) as HandlerMap<AnalyticsOperations>;
}
