// The state of one simulated day (a record the simulation's functions take): the seeded draws, the
// products available, the mall's pages, and the visits and orders so far. Sources and pages are
// shared objects: visits refer to them rather than holding copies.
import { memo } from '../support/memo.js';
import { hashOf, seededRandom } from '../support/seeded-random.js';
import type {
  SimulatedOrder,
  SimulatedProduct,
  SimulatedVisit,
  VisitSource,
} from './analytics-simulation.js';

/** A page on a PC and on a mobile device. */
export interface Site {
  readonly pc: string;
  readonly mobile: string;
}

/** An ad medium and what its ads carry. */
export interface AdMedium {
  readonly ad: string;
  readonly medium: string;
  readonly weight: number;
  /** Search engine of a keyword search ad (keywords come from the products and the mall's name). */
  readonly engine?: string;
  /** `utm_term` values of other ads. */
  readonly terms?: readonly string[];
  /** The referring page; none for ads whose clicks carry no referrer. */
  readonly site?: Site;
  readonly campaigns: readonly string[];
  readonly contents: readonly string[];
}

/** A writable copy of `T`, while the simulation fills it in. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The referrer of a page (`domain/path`); undefined for none. */
export const referrerOf = (page: string | undefined) =>
  page === undefined ? undefined : { domain: page.slice(0, page.indexOf('/')), url: page };

/** A new day of the mall's shop over the products available, seeded by mall, shop and day. */
export function dayState(mallId: string, shopNo: number, day: string, pool: readonly SimulatedProduct[]) {
  const host = `${mallId}.example.com`;
  return {
    mallId,
    day,
    pool,
    random: seededRandom(hashOf(`${mallId}|${shopNo}|${day}`)),
    home: `${host}/`,
    basket: `${host}/order/basket.html`,
    orderPages: [`${host}/order/orderform.html`, `${host}/order/order_result.html`],
    otherPages: ['board/notice/list.html', 'event/list.html', 'myshop/index.html', 'member/login.html'].map(
      (path) => `${host}/${path}`,
    ),
    productPage: memo((productNo: number) => `${host}/product/detail.html?product_no=${productNo}`),
    categoryPage: memo((categoryNo: number) => `${host}/product/list.html?cate_no=${categoryNo}`),
    referrals: [
      `blog.naver.com/${mallId}_review`,
      `cafe.naver.com/${mallId}fans`,
      `www.instagram.com/${mallId}.official`,
      'www.youtube.com/watch',
    ],
    /** The source of visits referred by a page without ad information (one object per page). */
    referredBy: memo((page: string): VisitSource => ({ referrer: referrerOf(page), ad: undefined })),
    /** The sources of ad visits, by medium and keyword (see visit-sources.ts's `adSource`). */
    adSlots: memo((_medium: AdMedium) => memo((_keyword: string): VisitSource[] => [])),
    visits: [] as Mutable<SimulatedVisit>[],
    orders: [] as Mutable<SimulatedOrder>[],
  } as const;
}

/** One mall's shop on one day, while its visits are simulated. */
export type DayState = ReturnType<typeof dayState>;

/** One of `items`, drawn. */
export const pick = <T>(state: DayState, items: readonly T[]): T =>
  items[Math.floor(state.random() * items.length)] as T;
/** Whether a draw falls under `p`. */
export const chance = (state: DayState, p: number) => state.random() < p;

/** An index drawn with the given weights. */
export function drawIndex(state: DayState, weights: readonly number[], total: number): number {
  let r = state.random() * total;
  for (let i = 0; i < weights.length - 1; i++) {
    r -= weights[i] as number;
    if (r < 0) return i;
  }
  return weights.length - 1;
}
