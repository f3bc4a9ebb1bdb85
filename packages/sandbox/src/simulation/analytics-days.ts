// The simulated visits behind an analytics query: the mall's displayed products as the simulation
// sees them (rebuilt when a product changes) and the visits of each day of the range. Days of ranges
// up to a quarter are cached per mall, shop and day; longer ranges read through (a year of visits
// costs more to keep than to simulate again), and ranges are cut to their first 366 days.
import type { SandboxStore } from '@mall-api/mall-state';
import type { ProductRecord } from '../catalogue/product-directory.js';
import type { ProductService } from '../catalogue/product-service.js';
import { derivedFrom } from '../support/derived.js';
import { kstDateTime } from '../support/kst-time.js';
import type { RecentValues } from '../support/recent-values.js';
import type { Device, SimulatedProduct, SimulatedVisit } from './analytics-simulation.js';
import { simulateDay } from './simulated-day.js';

const dayMs = 86_400_000;
/** The longest range simulated (longer ranges are cut to their first year). */
export const maxDays = 366;
/** Days kept in the cache: two quarters. */
const capacity = 186;
/** The longest range whose days are put into the cache. */
const cachedRangeDays = 93;

/** What a report needs to know of the query to select its visits. */
export interface VisitSelection {
  readonly mallId: string;
  readonly shopNo: number;
  /** First and last day, `YYYY-MM-DD`. */
  readonly startDate: string;
  readonly endDate: string;
  readonly device: Device | 'total';
}

/** Every day from `start` to `end` inclusive (`YYYY-MM-DD`), at most {@link maxDays}. */
export function daysBetween(start: string, end: string): string[] {
  const result: string[] = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= last && result.length < maxDays; t += dayMs)
    result.push(new Date(t).toISOString().slice(0, 10));
  return result;
}

/** The Korean calendar day of a stored date-time (the distant past when it cannot be read). */
function kstDay(dateTime: unknown): string {
  const instant = Date.parse(String(dateTime));
  return Number.isNaN(instant) ? '0000-00-00' : kstDateTime(instant).slice(0, 10);
}

/** A stored product as the simulation sees it. */
function simulatedProduct(record: ProductRecord): SimulatedProduct {
  const price = Math.round(Number(record.price ?? 0));
  const categories = Array.isArray(record.category)
    ? record.category
        .map((c: { category_no?: unknown }) => c?.category_no)
        .filter((no: unknown): no is number => typeof no === 'number' && Number.isInteger(no) && no > 0)
    : [];
  return {
    shopNo: record.shop_no,
    productNo: record.product_no,
    name: record.product_name,
    code: record.product_code,
    price: Number.isFinite(price) && price > 0 ? price : 0,
    selling: record.selling === 'T',
    categories,
    availableFrom: kstDay(record.created_date),
    keyword: record.product_name.trim().toLowerCase().split(/\s+/).slice(-2).join(' '),
  };
}

/**
 * The simulated days over the sandbox's products: displayed (`display: T`) non-bundle products
 * take part from their creation day on.
 */
export function createSimulatedDays(store: SandboxStore, products: ProductService, recent?: RecentValues) {
  /** The catalog and the days simulated over it, both new after any product write. */
  const current = derivedFrom(
    store,
    ['product'],
    () => ({
      // Every shop sells the shared catalogue, each at its own prices.
      catalog: Array.from({ length: products.settings.shops }, (_, index) => index + 1)
        .flatMap((shopNo) => products.ordered(false, undefined, false, shopNo))
        .filter((record) => record.display === 'T')
        .map(simulatedProduct)
        .sort((a, b) => a.productNo - b.productNo),
      cache: new Map<string, SimulatedVisit[]>(),
    }),
    recent,
  );

  /** A day's visits: from the cache, or simulated (and kept when `keep`). */
  const day = (mallId: string, shopNo: number, date: string, keep: boolean) => {
    const { catalog, cache } = current();
    const key = `${shopNo}|${date}|${mallId}`;
    const cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const visits = simulateDay(mallId, shopNo, date, catalog);
    if (keep) {
      cache.set(key, visits);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    }
    return visits;
  };

  return {
    /** The visits of the selection's device, one array per day of the selection, in time order. */
    *days({ mallId, shopNo, startDate, endDate, device }: VisitSelection): Iterable<SimulatedVisit[]> {
      const dates = daysBetween(startDate, endDate);
      const keep = dates.length <= cachedRangeDays;
      for (const date of dates) {
        const visits = day(mallId, shopNo, date, keep);
        yield device === 'total' ? visits : visits.filter((visit) => visit.device === device);
      }
    },
  };
}
