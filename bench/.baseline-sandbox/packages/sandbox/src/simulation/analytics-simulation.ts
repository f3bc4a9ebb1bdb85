// The traffic of one sandbox mall on one day, as the analytics reports see it: a seeded set of
// visits, each by a visitor (new or returning, on a PC or a mobile device, a member or a guest,
// from one or two IP addresses) at an hour of the day, coming directly, from a referring page,
// from an organic search or from an ad (medium, keyword, campaign and content tags; search ads
// name their engine). A visit views pages and product detail pages (reached from a category page
// or not), puts some of those products (those on sale) into the cart, and some visits end in an
// order of a product they carted. Every analytics report aggregates these visits, so the figures
// of different endpoints agree. The same mall, shop, day and products give the same visits, value
// for value.
import { memo } from '../support/memo.js';
import { seededRandom } from '../support/seeded-random.js';

/** The device of a visitor. */
export type Device = 'pc' | 'mobile';

/** A product as the simulation sees it (a displayed, non-bundle product of the sandbox). */
export interface SimulatedProduct {
  readonly shopNo: number;
  readonly productNo: number;
  readonly name: string;
  readonly code: string;
  /** Price in whole currency units. */
  readonly price: number;
  /** Whether the product is on sale (`selling: T`): only then can it be put into the cart and ordered. */
  readonly selling: boolean;
  /** Categories the product is shown in (`category[].category_no` of the stored product). */
  readonly categories: readonly number[];
  /** First day (`YYYY-MM-DD`, Korean time) the product can be viewed and ordered: its creation day. */
  readonly availableFrom: string;
  /** The search keyword that leads to the product: the last two words of its name, lower case. */
  readonly keyword: string;
}

/** The ad tags of a visit that began on an ad (`utm_source`, `utm_term`, `utm_medium`, …). */
export interface AdTags {
  readonly ad: string;
  readonly keyword: string;
  readonly medium: string;
  readonly campaign: string;
  readonly content: string;
  /** The search engine of a keyword search ad; undefined for other ads. */
  readonly engine: string | undefined;
  /** `ad` and `keyword` in one string, a grouping key. */
  readonly key: string;
}

/** Where a visit came from. */
export interface VisitSource {
  /** The referring page (`domain/path`); undefined for visits without a referrer. */
  readonly referrer: { readonly domain: string; readonly url: string } | undefined;
  /** The ad the visit began on; undefined for visits without ad information. */
  readonly ad: AdTags | undefined;
}

/** An order: one product, bought at the end of a visit. */
export interface SimulatedOrder {
  /** `YYYYMMDD-NNNNNNN`, numbered in time order within the day. */
  readonly id: string;
  /** `YYYY-MM-DDTHH:MM:SS+09:00`. */
  readonly date: string;
  readonly hour: number;
  /** The visitor who ordered (`day/number`, unique across days). */
  readonly buyer: string;
  readonly member: boolean;
  readonly device: Device;
  readonly product: SimulatedProduct;
  /** The category the product was reached through (or its first one); undefined without categories. */
  readonly categoryNo: number | undefined;
  readonly quantity: number;
  readonly amount: number;
  readonly paymentMethod: string;
  readonly source: VisitSource;
}

/** What a visit did with one product. */
export interface ProductTouch {
  readonly product: SimulatedProduct;
  /** The category the product was first reached through (or its first one); undefined without categories. */
  readonly categoryNo: number | undefined;
  /** Views of the product's detail page. */
  readonly views: number;
  /** Times the product was put into the cart. */
  readonly carts: number;
  /** The order of the product, if the visit ended in one. */
  readonly order: SimulatedOrder | undefined;
}

/** One visit. */
export interface SimulatedVisit {
  readonly day: string;
  readonly hour: number;
  readonly minute: number;
  readonly device: Device;
  /** The visitor's number within the day. */
  readonly visitor: number;
  /** Whether this is the first visit of a new visitor. */
  readonly first: boolean;
  /** Whether this is the visitor's first visit of the day (one per distinct user). */
  readonly firstOfVisitor: boolean;
  /** Whether this is the first visit of the day from the visitor's IP address (one per unique visitor). */
  readonly firstOfAddress: boolean;
  readonly member: boolean;
  readonly source: VisitSource;
  /** The URLs of the pages viewed (`host/path`), in order: a page viewed twice is there twice. */
  readonly pages: readonly string[];
  readonly products: readonly ProductTouch[];
  readonly order: SimulatedOrder | undefined;
}

/** The ad `ad` of visits without ad information, as the analytics API names it. */
export const noChannel = '채널 없음';
/** The domain of visits without a referrer, as the analytics API names it. */
export const noReferringDomain = '참조 도메인 없음';

const paymentMethods = ['card', 'kakaopay', 'naverpay', 'cash'];
/** Relative traffic per hour of the day (quiet nights, an evening peak). */
const hourWeights = [
  163, 90, 52, 34, 26, 39, 95, 219, 378, 516, 606, 654, 757, 688, 641, 667, 735, 817, 920, 1127, 1312, 1423,
  1238, 735,
];
const hourTotal = hourWeights.reduce((a, b) => a + b, 0);

interface Site {
  readonly pc: string;
  readonly mobile: string;
}
const engines: readonly (Site & { readonly engine: string })[] = [
  { engine: 'Naver', pc: 'search.naver.com/search.naver', mobile: 'm.search.naver.com/search.naver' },
  { engine: 'Google', pc: 'www.google.com/search', mobile: 'www.google.com/search' },
  { engine: 'Daum', pc: 'search.daum.net/search', mobile: 'm.search.daum.net/search' },
];
const engineSite = (name: string) => engines.find((e) => e.engine === name);

interface AdMedium {
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
const adMedia: readonly AdMedium[] = [
  {
    ad: 'Naver Search Ads',
    medium: 'cpc',
    weight: 40,
    engine: 'Naver',
    site: engineSite('Naver'),
    campaigns: ['always_on', 'brand'],
    contents: ['search_text_a', 'search_text_b'],
  },
  {
    ad: 'Google Ads',
    medium: 'cpc',
    weight: 20,
    engine: 'Google',
    site: engineSite('Google'),
    campaigns: ['always_on', 'shopping'],
    contents: ['search_text_a', 'shopping_card'],
  },
  {
    ad: 'Daum Clicks',
    medium: 'cpc',
    weight: 10,
    engine: 'Daum',
    site: engineSite('Daum'),
    campaigns: ['always_on'],
    contents: ['search_text_a'],
  },
  {
    ad: 'Instagram',
    medium: 'social',
    weight: 20,
    terms: ['fall outfit', 'new arrivals', 'gift ideas'],
    site: { pc: 'www.instagram.com/', mobile: 'l.instagram.com/' },
    campaigns: ['season_launch', 'weekend_sale'],
    contents: ['reel_01', 'story_02', 'feed_03'],
  },
  {
    ad: 'Criteo',
    medium: 'display',
    weight: 10,
    terms: ['retargeting'],
    campaigns: ['retargeting'],
    contents: ['dynamic_banner'],
  },
];
const adWeights = adMedia.map((medium) => medium.weight);
const adWeightTotal = adWeights.reduce((a, b) => a + b, 0);

/** A 32-bit FNV-1a hash of a string: the seed of a mall's day. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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
  const random = seededRandom(hash(`${mallId}|${shopNo}|${day}`));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;

  // Shared strings and sources: visits refer to them rather than holding copies.
  const host = `${mallId}.example.com`;
  const home = `${host}/`;
  const basket = `${host}/order/basket.html`;
  const orderPages = [`${host}/order/orderform.html`, `${host}/order/order_result.html`];
  const otherPages = [
    'board/notice/list.html',
    'event/list.html',
    'myshop/index.html',
    'member/login.html',
  ].map((path) => `${host}/${path}`);
  const productPage = memo((productNo: number) => `${host}/product/detail.html?product_no=${productNo}`);
  const categoryPage = memo((categoryNo: number) => `${host}/product/list.html?cate_no=${categoryNo}`);
  const referrals = [
    `blog.naver.com/${mallId}_review`,
    `cafe.naver.com/${mallId}fans`,
    `www.instagram.com/${mallId}.official`,
    'www.youtube.com/watch',
  ];
  const direct: VisitSource = { referrer: undefined, ad: undefined };
  const referrerOf = (page: string | undefined) =>
    page === undefined ? undefined : { domain: page.slice(0, page.indexOf('/')), url: page };
  /** The source of visits referred by a page without ad information (one object per page). */
  const referredBy = memo((page: string): VisitSource => ({ referrer: referrerOf(page), ad: undefined }));
  const adSlots = memo((_medium: AdMedium) => memo((_keyword: string): VisitSource[] => []));
  /** The source of visits from an ad (one object per medium, keyword, campaign, content and device). */
  const adSource = (medium: AdMedium, keyword: string, device: Device): VisitSource => {
    const campaign = Math.floor(random() * medium.campaigns.length);
    const content = Math.floor(random() * medium.contents.length);
    const slots = adSlots(medium)(keyword);
    const slot = (campaign * medium.contents.length + content) * 2 + (device === 'pc' ? 0 : 1);
    let found = slots[slot];
    if (!found) {
      found = {
        referrer: referrerOf(medium.site?.[device]),
        ad: {
          ad: medium.ad,
          keyword,
          medium: medium.medium,
          campaign: medium.campaigns[campaign] as string,
          content: medium.contents[content] as string,
          engine: medium.engine,
          key: `${medium.ad}\n${keyword}`,
        },
      };
      slots[slot] = found;
    }
    return found;
  };

  /** An index drawn with the given weights. */
  const drawIndex = (weights: readonly number[], total: number) => {
    let r = random() * total;
    for (let i = 0; i < weights.length - 1; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  };
  const pickHour = () => drawIndex(hourWeights, hourTotal);
  const pickAd = () => adMedia[drawIndex(adWeights, adWeightTotal)] as AdMedium;

  /** Where a visit came from, and the product it landed on (if any). */
  const arrival = (device: Device): { source: VisitSource; landing: SimulatedProduct | undefined } => {
    const r = random();
    if (r < 0.3) return { source: direct, landing: undefined };
    if (r < 0.48) {
      const engine = pick(engines);
      return { source: referredBy(engine[device]), landing: chance(0.5) ? pick(pool) : undefined };
    }
    if (r < 0.62) return { source: referredBy(pick(referrals)), landing: undefined };
    const medium = pickAd();
    const landing = medium.engine === undefined || chance(0.2) ? undefined : pick(pool);
    const keyword = medium.engine === undefined ? pick(medium.terms ?? ['']) : (landing?.keyword ?? mallId);
    return { source: adSource(medium, keyword, device), landing };
  };

  const visits: Mutable<SimulatedVisit>[] = [];
  const orders: Mutable<SimulatedOrder>[] = [];
  /** One visit: the pages and products it views, what it carts and perhaps its order. */
  const simulateVisit = (visit: Omit<SimulatedVisit, 'source' | 'pages' | 'products' | 'order'>) => {
    const { source: from, landing } = arrival(visit.device);
    const pages: string[] = [];
    const touches: Mutable<ProductTouch>[] = [];
    const viewProduct = (product: SimulatedProduct, via: number | undefined) => {
      pages.push(productPage(product.productNo));
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
    for (let step = 0; step < 10 && chance(0.72); step++) {
      const r = random();
      if (r < 0.5) {
        const product = pick(pool);
        if (product.categories.length > 0 && chance(0.6)) {
          const categoryNo = pick(product.categories);
          pages.push(categoryPage(categoryNo));
          viewProduct(product, categoryNo);
        } else viewProduct(product, undefined);
      } else if (r < 0.7) pages.push(home);
      else if (r < 0.85) pages.push(pick(otherPages));
      else {
        const categories = pick(pool).categories;
        pages.push(categories.length > 0 ? categoryPage(pick(categories)) : home);
      }
    }
    let carted: Mutable<ProductTouch> | undefined;
    for (const touch of touches)
      if (touch.product.selling && chance(0.16)) {
        touch.carts = chance(0.1) ? 2 : 1;
        carted ??= touch;
        pages.push(basket);
      }
    const { hour, minute } = visit;
    let order: Mutable<SimulatedOrder> | undefined;
    if (carted && chance(0.45)) {
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
        paymentMethod: pick(paymentMethods),
        source: from,
      };
      carted.order = order;
      orders.push(order);
      pages.push(...orderPages);
    }
    // Written out field by field (a spread would leave V8 a slow dictionary-mode object); `pages`
    // copied to its exact length.
    visits.push({
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
  };

  const visitors = 60 + Math.floor(random() * 90);
  for (let visitor = 0; visitor < visitors; visitor++) {
    const device: Device = chance(0.62) ? 'mobile' : 'pc';
    const isNew = chance(0.55);
    const member = chance(isNew ? 0.2 : 0.65);
    const count = 1 + (chance(0.22) ? 1 : 0) + (chance(0.05) ? 1 : 0);
    const addresses = count > 1 && chance(0.3) ? 2 : 1;
    const times = Array.from({ length: count }, () => pickHour() * 60 + Math.floor(random() * 60));
    for (const [k, time] of times.sort((a, b) => a - b).entries())
      simulateVisit({
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

const pad = (n: number) => String(n).padStart(2, '0');
