// The analytics reports of traffic: visitors and page views by day or hour, viewed pages, and the
// visits and sales by ad, ad keyword, referring domain and URL, and search keyword.
import { noChannel, type SimulatedVisit } from '../simulation/analytics-simulation.js';
import {
  adFields,
  adKeyOf,
  adOf,
  buyerOfVisit,
  by,
  byDay,
  byDayOrHour,
  byField,
  domainOf,
  hasOrders,
  one,
  type PageHit,
  pageHitsOf,
  salesRow,
  searchKeywordOf,
  visitSales,
  visitsOf,
} from './analytics-measures.js';
import { type AnalyticsQuery, average, defineReport, type Grouping, percent } from './analytics-report.js';

/** One figure of the visits of each day (or hour), in time order, in the row's field `field`. */
const timeSeries = (
  key: string,
  grouping: (query: AnalyticsQuery) => Grouping<SimulatedVisit>,
  field: string,
  figure: (visit: SimulatedVisit) => number,
) =>
  defineReport({
    key,
    records: visitsOf,
    grouping,
    measures: { figure },
    row: (t) => ({ [field]: t.figure }),
    sort: { key: 'date', order: 'asc' },
  });

/** The visits of each group, most visited first. */
const visitCounts = (key: string, grouping: (query: AnalyticsQuery) => Grouping<SimulatedVisit>) =>
  defineReport({
    key,
    records: visitsOf,
    grouping,
    measures: { visits: one },
    row: (t) => ({ visit_count: t.visits }),
    sort: { key: 'visit_count', order: 'desc' },
  });

/** The orders and sales of each group of visits that ordered (by default the highest sales first). */
const salesOfVisits = (
  key: string,
  grouping: (query: AnalyticsQuery) => Grouping<SimulatedVisit>,
  sort: { key: string; order: 'asc' | 'desc' } = { key: 'order_amount', order: 'desc' },
) =>
  defineReport({
    key,
    records: visitsOf,
    grouping,
    measures: visitSales,
    row: salesRow,
    keep: hasOrders,
    sort,
  });

/** The traffic reports. */
export const trafficReports = {
  listDailyActiveUsers: timeSeries('dailyactive', byDay, 'user_count', (v) => (v.firstOfVisitor ? 1 : 0)),
  listPageViews: timeSeries('pageview', byDayOrHour, 'page_view', (v) => v.pages.length),
  listUniqueVisitors: timeSeries('unique', byDay, 'unique_visit_count', (v) => (v.firstOfAddress ? 1 : 0)),
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
    grouping: byField<PageHit>('url', (hit) => hit.url),
    measures: { views: (hit) => hit.views, visits: one, first: (hit) => (hit.first ? 1 : 0) },
    row: (t) => ({ count: t.views, visit_count: t.visits, first_visit_count: t.first }),
    sort: { key: 'count', order: 'desc' },
  }),
  listAdVisits: visitCounts(
    'ads',
    byField('ad', (v) => adOf(v) ?? noChannel),
  ),
  listAdSales: salesOfVisits('adsales', byField('ad', adOf)),
  listAdKeywordSales: salesOfVisits('adkeywordsales', by(adKeyOf, adFields), { key: 'ad', order: 'asc' }),
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
  listReferringDomains: visitCounts('domains', byField('domain', domainOf)),
  listReferringDomainSales: salesOfVisits('domainsales', byField('domain', domainOf)),
  listReferringUrls: visitCounts(
    'urls',
    byField('url', (v) => v.source.referrer?.url),
  ),
  listKeywordVisits: visitCounts('keywords', byField('keyword', searchKeywordOf)),
  listKeywordSales: salesOfVisits('keywordsales', byField('keyword', searchKeywordOf)),
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
