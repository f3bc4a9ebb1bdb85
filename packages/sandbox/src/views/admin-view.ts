// The admin API answered from one mall's catalogue: the handler groups (admin-*.ts) and the webhook
// setting and delivery log, each write inside one store transaction so a refused write changes
// nothing, each read keeping its answers until the next write (kept-answers.ts), every operation
// checking its shop. Operations without a handler are answered from the spec's examples.

import { eventTableNames, tableNames } from '@mall-api/mall-state';
import type { operations as AdminOperations } from '@mall-api/specs/types/admin';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { deliveryLog, logPage } from '../events/delivery-log.js';
import { found, invalidFields, updated } from '../sandbox-result.js';
import type { RecentValues } from '../support/recent-values.js';
import { categoryHandlers } from './admin-categories.js';
import { placementHandlers } from './admin-placements.js';
import { productHandlers } from './admin-products.js';
import { type AdminViewState, type ShopCarrier, shopOf, write } from './admin-view-state.js';
import { type Handler, type HandlerMap, wrapEach } from './handler-types.js';
import { keptAnswers } from './kept-answers.js';
import type { SoldAs } from './list-query.js';

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
  const { store, webhooks, products } = catalogue;
  const state: AdminViewState = { catalogue, shapes, soldAs, writers: new WeakSet() };
  const handlers: HandlerMap<AdminOperations> = {
    ...categoryHandlers(state),
    ...placementHandlers(state),
    ...productHandlers(state),
    // Webhooks
    getWebhookSetting: () =>
      found({ webhook: { scopes: shapes.eventScopes, reception_status: webhooks.receptionStatus() } }),
    updateWebhookSetting: write(state, ({ body }) =>
      updated({ webhook: { reception_status: webhooks.setReceptionStatus(body.request.reception_status) } }),
    ),
    listWebhookLogs: ({ query }) =>
      found({ logs: logPage(deliveryLog(store), shapes.queryMeanings('listWebhookLogs'), query) }),
  };
  const kept = keptAnswers(store, [...tableNames, ...eventTableNames], answerCapacity, recent);
  const shops = products.settings.shops;
  // Reads keep their answers; every operation names a shop of the mall (shops 1 to `shops` share
  // the catalogue), checked before a kept answer is given.
  return wrapEach(handlers, (handler, operationId) => {
    const answer = state.writers.has(handler as Handler<never>) ? handler : kept(operationId, handler);
    return (input) => {
      const { shopNo, location } = shopOf(input as ShopCarrier);
      if (shopNo > shops)
        throw invalidFields([
          {
            location,
            name: 'shop_no',
            message: `shop ${shopNo} does not exist; the mall has shop${shops === 1 ? ' 1' : `s 1 to ${shops}`}`,
          },
        ]);
      return answer(input);
    };
  });
}

/** How many read answers a mall keeps (the same call is answered from them until any write). */
const answerCapacity = 64;
