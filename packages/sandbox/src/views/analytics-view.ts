// The analytics API in sandbox mode: every report answers from the same simulated visits of the
// queried mall, shop and days, so the figures agree across endpoints. The query's `mall_id` must
// be the mall's own (403 otherwise); `device_type` keeps the visits of one device.

import type { operations as AnalyticsOperations } from '@mall-api/specs/types/analytics';
import type { Catalogue } from '../catalogue/catalogue.js';
import { forbidden, found } from '../sandbox-result.js';
import { createSimulatedDays, type VisitSelection } from '../simulation/analytics-days.js';
import type { RecentValues } from '../support/recent-values.js';
import type { AnalyticsQuery, AnalyticsReport } from './analytics-report.js';
import { salesReports } from './analytics-sales-reports.js';
import { trafficReports } from './analytics-traffic-reports.js';
import type { AnyHandler, HandlerMap } from './handler-types.js';
import { keptAnswers } from './kept-answers.js';

/** The mall, shop, days and device a query selects (the simulation's seed is the query's `mall_id`). */
function selection(query: AnalyticsQuery): VisitSelection {
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
  const days = createSimulatedDays(store, products, recent);
  const reports: { readonly [Op in keyof AnalyticsOperations]: AnalyticsReport } = {
    ...salesReports((categoryNo) => categories.find(categoryNo)?.category_name),
    ...trafficReports,
  };
  /** Answers already computed, by operation and query; new after any product or category write. */
  const kept = keptAnswers(store, ['product', 'category'], answerCapacity, recent);
  return Object.fromEntries(
    Object.entries(reports).map(([operationId, report]): [string, AnyHandler] => [
      operationId,
      kept(operationId, ({ query }) => {
        const converted = query as AnalyticsQuery;
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
