// One visit of a simulated day: the pages and product detail pages it views (reached from a category
// page or not), the products on sale it puts into the cart, and perhaps the order it ends in.
import type {
  ProductTouch,
  SimulatedOrder,
  SimulatedProduct,
  SimulatedVisit,
} from './analytics-simulation.js';
import { chance, type DayState, type Mutable, pick } from './day-state.js';
import { arrival } from './visit-sources.js';

const paymentMethods = ['card', 'kakaopay', 'naverpay', 'cash'];
const pad = (n: number) => String(n).padStart(2, '0');

/** One visit: the pages and products it views, what it carts and perhaps its order. */
export function simulateVisit(
  state: DayState,
  visit: Omit<SimulatedVisit, 'source' | 'pages' | 'products' | 'order'>,
): void {
  const { pool, random, day, home } = state;
  const { source: from, landing } = arrival(state, visit.device);
  const pages: string[] = [];
  const touches: Mutable<ProductTouch>[] = [];
  const viewProduct = (product: SimulatedProduct, via: number | undefined) => {
    pages.push(state.productPage(product.productNo));
    const touch = touches.find((t) => t.product === product);
    if (touch) touch.views++;
    else
      touches.push({
        product,
        categoryNo: via ?? product.categories[0],
        views: 1,
        carts: 0,
        order: undefined,
      });
  };
  if (landing) viewProduct(landing, undefined);
  else pages.push(home);
  for (let step = 0; step < 10 && chance(state, 0.72); step++) {
    const r = random();
    if (r < 0.5) {
      const product = pick(state, pool);
      if (product.categories.length > 0 && chance(state, 0.6)) {
        const categoryNo = pick(state, product.categories);
        pages.push(state.categoryPage(categoryNo));
        viewProduct(product, categoryNo);
      } else viewProduct(product, undefined);
    } else if (r < 0.7) pages.push(home);
    else if (r < 0.85) pages.push(pick(state, state.otherPages));
    else {
      const categories = pick(state, pool).categories;
      pages.push(categories.length > 0 ? state.categoryPage(pick(state, categories)) : home);
    }
  }
  let carted: Mutable<ProductTouch> | undefined;
  for (const touch of touches)
    if (touch.product.selling && chance(state, 0.16)) {
      touch.carts = chance(state, 0.1) ? 2 : 1;
      carted ??= touch;
      pages.push(state.basket);
    }
  const { hour, minute } = visit;
  let order: Mutable<SimulatedOrder> | undefined;
  if (carted && chance(state, 0.45)) {
    const q = random();
    const quantity = q < 0.75 ? 1 : q < 0.93 ? 2 : 3;
    const time = `${pad(hour)}:${pad(minute + Math.floor(random() * (60 - minute)))}:${pad(Math.floor(random() * 60))}`;
    order = {
      id: '',
      date: `${day}T${time}+09:00`,
      hour,
      buyer: `${day}/${visit.visitor}`,
      member: visit.member,
      device: visit.device,
      product: carted.product,
      categoryNo: carted.categoryNo,
      quantity,
      amount: carted.product.price * quantity,
      paymentMethod: pick(state, paymentMethods),
      source: from,
    };
    carted.order = order;
    state.orders.push(order);
    pages.push(...state.orderPages);
  }
  // Written out field by field (a spread would leave V8 a slow dictionary-mode object); `pages`
  // copied to its exact length.
  state.visits.push({
    day: visit.day,
    hour,
    minute,
    device: visit.device,
    visitor: visit.visitor,
    first: visit.first,
    firstOfVisitor: visit.firstOfVisitor,
    firstOfAddress: visit.firstOfAddress,
    member: visit.member,
    source: from,
    pages: pages.slice(),
    products: touches,
    order,
  });
}
