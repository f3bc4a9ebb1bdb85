// The analytics reports of sales: by product (sales, views, cart actions, category details), order
// details, by payment method, hour and member status, and sales per visitor.
import { noChannel, type ProductTouch, type SimulatedOrder } from '../simulation/analytics-simulation.js';
import {
  amountOfVisit,
  buyerOfVisit,
  buyersRow,
  by,
  byField,
  byProduct,
  one,
  orderSales,
  ordersOf,
  touchesOf,
  visitsOf,
} from './analytics-measures.js';
import { average, defineReport, percent } from './analytics-report.js';

/** The sales reports; `categoryName` names a category (undefined once deleted). */
export const salesReports = (categoryName: (categoryNo: number) => string | undefined) => ({
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
    grouping: byField<SimulatedOrder>('payment_method', (o) => o.paymentMethod),
    measures: orderSales,
    row: buyersRow,
    sort: { key: 'order_amount', order: 'desc' },
  }),
  listHourlySales: defineReport({
    key: 'times',
    records: ordersOf,
    grouping: byField<SimulatedOrder>('hour', (o) => o.hour),
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
});
