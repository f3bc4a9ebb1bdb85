// The traffic of one sandbox mall on one day as the analytics reports see it: seeded visits by new
// or returning visitors, on PC or mobile, arriving directly, from a referrer, a search or an ad,
// viewing, carting and sometimes ordering. Every report aggregates these, so endpoints agree. The
// types are here; the simulation is simulated-day.ts's.

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
