// The analytics API in sandbox mode: figures generated deterministically per mall and day from
// the sandbox's products, so a repeated query gets the same answer and every endpoint
// aggregates the same simulated orders (product sales, payment methods, members against
// non-members and hours all sum to the same order count and amount). Orders buy displayed
// products at their stored prices.
import type { SandboxHandlers } from './handler-types.js';
import { page, type Query, single } from './list-query.js';
import type { ProductRecord, ProductService } from './product-service.js';
import { seededRandom } from './seed-data.js';

/** One simulated order line. */
export interface SimulatedOrder {
  readonly buyer: string;
  readonly productNo: number;
  readonly productName: string;
  readonly quantity: number;
  readonly amount: number;
  readonly hour: number;
  readonly paymentMethod: string;
  readonly member: boolean;
  readonly device: 'pc' | 'mobile';
}

const paymentMethods = ['card', 'kakaopay', 'cash', 'naverpay'];
const dayMs = 86_400_000;
/** The longest range simulated (longer ranges are cut to their first year). */
const maxDays = 366;

/** A 32-bit FNV-1a hash of a string, the seed of a mall's day. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The orders of one mall on one day (`YYYY-MM-DD`) over the given products. */
export function ordersOfDay(
  mallId: string,
  day: string,
  products: readonly ProductRecord[],
): SimulatedOrder[] {
  if (products.length === 0) return [];
  const random = seededRandom(hash(`${mallId}|${day}`));
  const count = 20 + Math.floor(random() * 40);
  return Array.from({ length: count }, () => {
    const product = products[Math.floor(random() * products.length)] as ProductRecord;
    const quantity = 1 + Math.floor(random() * 3);
    return {
      buyer: `${day}-${Math.floor(random() * count * 0.8)}`,
      productNo: product.product_no,
      productName: product.product_name,
      quantity,
      amount: Math.round(Number(product.price ?? 0)) * quantity,
      hour: Math.min(23, Math.floor((random() + random()) * 12)),
      paymentMethod: paymentMethods[Math.floor(random() * paymentMethods.length)] as string,
      member: random() < 0.7,
      device: random() < 0.6 ? 'mobile' : 'pc',
    };
  });
}

/** Every day from `start` to `end` inclusive (`YYYY-MM-DD`). */
function days(start: string, end: string): string[] {
  const result: string[] = [];
  for (
    let t = Date.parse(`${start}T00:00:00Z`);
    t <= Date.parse(`${end}T00:00:00Z`) && result.length < maxDays;
    t += dayMs
  )
    result.push(new Date(t).toISOString().slice(0, 10));
  return result;
}

type Row = Record<string, string | number>;

function sortRows(rows: Row[], query: Query, defaultSort: string, defaultOrder: 'asc' | 'desc'): Row[] {
  const sort = single(query, 'sort') ?? defaultSort;
  const direction = (single(query, 'order') ?? defaultOrder) === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const [x, y] = [a[sort], b[sort]];
    const difference =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return direction * difference;
  });
}

export function createAnalyticsHandlers(products: ProductService): SandboxHandlers {
  const orders = (query: Query): SimulatedOrder[] => {
    const mallId = single(query, 'mall_id') ?? '';
    const device = single(query, 'device_type') ?? 'total';
    const displayed = products
      .all(false)
      .map((e) => e.record)
      .filter((p) => p.display === 'T');
    return days(single(query, 'start_date') ?? '', single(query, 'end_date') ?? '')
      .flatMap((day) => ordersOfDay(mallId, day, displayed))
      .filter((o) => device === 'total' || o.device === device);
  };
  const group = <K extends string | number>(list: SimulatedOrder[], key: (o: SimulatedOrder) => K) => {
    const groups = new Map<K, SimulatedOrder[]>();
    for (const order of list) groups.set(key(order), [...(groups.get(key(order)) ?? []), order]);
    return groups;
  };
  const sum = (list: SimulatedOrder[], value: (o: SimulatedOrder) => number) =>
    list.reduce((total, o) => total + value(o), 0);
  const buyers = (list: SimulatedOrder[]) => new Set(list.map((o) => o.buyer)).size;

  return {
    listProductSales: ({ query }) => {
      const rows = [...group(orders(query), (o) => o.productNo)].map(([productNo, list]) => ({
        product_no: productNo,
        product_name: list[0]?.productName ?? '',
        order_count: list.length,
        order_product_count: sum(list, (o) => o.quantity),
        order_amount: sum(list, (o) => o.amount),
      }));
      return {
        status: 200,
        body: { sales: page(sortRows(rows, query, 'order_amount', 'desc'), query, 100) },
      };
    },
    listProductViews: ({ query }) => {
      const rows = [...group(orders(query), (o) => o.productNo)].map(([productNo, list]) => ({
        product_no: productNo,
        product_name: list[0]?.productName ?? '',
        count: list.length * 25 + (hash(`${productNo}`) % 50),
      }));
      return { status: 200, body: { view: page(sortRows(rows, query, 'count', 'desc'), query, 100) } };
    },
    listPaymentMethodSales: ({ query }) => {
      const rows = [...group(orders(query), (o) => o.paymentMethod)].map(([method, list]) => ({
        payment_method: method,
        buyers_count: buyers(list),
        order_count: list.length,
        order_amount: sum(list, (o) => o.amount),
      }));
      return {
        status: 200,
        body: { paymethods: page(sortRows(rows, query, 'order_amount', 'desc'), query, 100) },
      };
    },
    listHourlySales: ({ query }) => {
      const rows = [...group(orders(query), (o) => o.hour)].map(([hour, list]) => ({
        hour,
        buyers_count: buyers(list),
        order_count: list.length,
        order_amount: sum(list, (o) => o.amount),
      }));
      return { status: 200, body: { times: page(sortRows(rows, query, 'hour', 'asc'), query, 100) } };
    },
    listMemberSales: ({ query }) => {
      const list = orders(query);
      const members = list.filter((o) => o.member);
      const others = list.filter((o) => !o.member);
      return {
        status: 200,
        body: {
          sales: [
            {
              member_order_count: members.length,
              member_order_amount: sum(members, (o) => o.amount),
              nonmember_order_count: others.length,
              nonmember_order_amount: sum(others, (o) => o.amount),
            },
          ],
        },
      };
    },
  };
}
