// The traffic of one sandbox mall's shop on one day (analytics-simulation.ts says what a visit is):
// visitors drawn with their devices, memberships and visit times over the hours of the day, each
// visit simulated (visit-path.ts), then the visits put in time order and the orders numbered.
import type { Device, SimulatedProduct, SimulatedVisit } from './analytics-simulation.js';
import { chance, dayState, drawIndex } from './day-state.js';
import { simulateVisit } from './visit-path.js';

/** Relative traffic per hour of the day (quiet nights, an evening peak). */
const hourWeights = [
  163, 90, 52, 34, 26, 39, 95, 219, 378, 516, 606, 654, 757, 688, 641, 667, 735, 817, 920, 1127, 1312, 1423,
  1238, 735,
];
const hourTotal = hourWeights.reduce((a, b) => a + b, 0);

/**
 * The visits of one mall's shop on one day (`YYYY-MM-DD`, Korean time), in time order, over the
 * products available that day (`products` of the shop whose `availableFrom` is not after `day`).
 * A day without products has no visits. Deterministic: the same arguments give equal visits.
 */
export function simulateDay(
  mallId: string,
  shopNo: number,
  day: string,
  products: readonly SimulatedProduct[],
): SimulatedVisit[] {
  const pool = products.filter((p) => p.shopNo === shopNo && p.availableFrom <= day);
  if (pool.length === 0) return [];
  const state = dayState(mallId, shopNo, day, pool);
  const { random, visits, orders } = state;
  const visitors = 60 + Math.floor(random() * 90);
  for (let visitor = 0; visitor < visitors; visitor++) {
    const device: Device = chance(state, 0.62) ? 'mobile' : 'pc';
    const isNew = chance(state, 0.55);
    const member = chance(state, isNew ? 0.2 : 0.65);
    const count = 1 + (chance(state, 0.22) ? 1 : 0) + (chance(state, 0.05) ? 1 : 0);
    const addresses = count > 1 && chance(state, 0.3) ? 2 : 1;
    const times = Array.from(
      { length: count },
      () => drawIndex(state, hourWeights, hourTotal) * 60 + Math.floor(random() * 60),
    );
    for (const [k, time] of times.sort((a, b) => a - b).entries())
      simulateVisit(state, {
        day,
        hour: Math.floor(time / 60),
        minute: time % 60,
        device,
        visitor,
        first: isNew && k === 0,
        firstOfVisitor: k === 0,
        firstOfAddress: k < addresses,
        member,
      });
  }

  visits.sort((a, b) => a.hour - b.hour || a.minute - b.minute);
  const compactDay = day.replaceAll('-', '');
  orders
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .forEach((order, index) => {
      order.id = `${compactDay}-${String(index + 1).padStart(7, '0')}`;
    });
  return visits;
}
