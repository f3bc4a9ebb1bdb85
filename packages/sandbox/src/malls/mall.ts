// One sandbox mall: its store, its catalogue, and the admin and analytics handlers over them (the
// admin writes the spec reports recording their events) and its store in the collection. Built in
// dependency order from what the malls share (the record shapes of the spec, the settings, the
// views kept alive lately, the events writes record) and what is its own (store, clock, id).
import type { SandboxStore } from '@mall-api/mall-state';
import type { WebhookDelivery } from '@mall-api/spec-model';
import { createCatalogue } from '../catalogue/catalogue.js';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { MallSettings } from '../catalogue/product-service.js';
import type { RecordShapes } from '../catalogue/record-shapes.js';
import { emittingEvents } from '../events/event-outbox.js';
import type { EventSource } from '../events/event-sources.js';
import type { RecentValues } from '../support/recent-values.js';
import { createAdminView } from '../views/admin-view.js';
import { createAnalyticsView } from '../views/analytics-view.js';
import { collectionProfiles } from '../views/collection-profile.js';
import { createCollectionStore } from '../views/collection-store.js';
import { handlerTable } from '../views/handler-types.js';

/** What every mall of a sandbox shares. */
export interface MallContext {
  /** Record shapes of the admin API. */
  readonly adminShapes: RecordShapes;
  /** Record shapes of the collection API (its example records are the collection records' templates). */
  readonly collectionShapes: RecordShapes;
  readonly settings: MallSettings;
  /** The derived views used lately across the malls (an idle mall's views may be collected). */
  readonly recentViews: RecentValues;
  /** The event each admin write the spec reports records (events/event-sources.ts). */
  readonly eventSources: ReadonlyMap<string, EventSource>;
  /** How the malls' events are delivered (the spec's `x-webhook-delivery`): the outbox's capacities. */
  readonly deliveryPolicy: WebhookDelivery;
}

/** Builds mall `id` over its store (which it creates its default main groups in, if missing). */
export function createMall(id: string, store: SandboxStore, clock: () => number, context: MallContext) {
  const catalogue = createCatalogue(store, context.adminShapes, clock, context.settings);
  const profiles = collectionProfiles(context.collectionShapes);
  const soldAs = (product: ProductRecord) => profiles.product(id, product, String(product.price ?? '0.00'));
  return {
    id,
    catalogue,
    admin: handlerTable(
      emittingEvents(createAdminView(catalogue, context.adminShapes, soldAs, context.recentViews), {
        mallId: id,
        policy: context.deliveryPolicy,
        store,
        sources: context.eventSources,
        reception: catalogue.webhooks.receptionStatus,
      }),
    ),
    analytics: handlerTable(createAnalyticsView(id, catalogue, context.recentViews)),
    collection: createCollectionStore(id, catalogue, context.collectionShapes, context.recentViews),
  };
}

/** One isolated mall (see {@link createMall}). */
export type Mall = ReturnType<typeof createMall>;
