// Where the visits of a simulated day come from: directly, from a search engine's results, from a
// referring page, or from an ad (search ads on the products' keywords, social and display ads on
// their own terms), with the ad media's weights, campaigns and contents.
import type { Device, SimulatedProduct, VisitSource } from './analytics-simulation.js';
import { type AdMedium, chance, type DayState, drawIndex, pick, referrerOf, type Site } from './day-state.js';

const engines: readonly (Site & { readonly engine: string })[] = [
  { engine: 'Naver', pc: 'search.naver.com/search.naver', mobile: 'm.search.naver.com/search.naver' },
  { engine: 'Google', pc: 'www.google.com/search', mobile: 'www.google.com/search' },
  { engine: 'Daum', pc: 'search.daum.net/search', mobile: 'm.search.daum.net/search' },
];
const engineSite = (name: string) => engines.find((e) => e.engine === name);

/** A keyword search ad of `engine`: its visits come from the engine's results pages. */
const searchAd = (
  ad: string,
  engine: string,
  weight: number,
  campaigns: string[],
  contents: string[],
): AdMedium => ({ ad, medium: 'cpc', weight, engine, site: engineSite(engine), campaigns, contents });

const adMedia: readonly AdMedium[] = [
  searchAd('Naver Search Ads', 'Naver', 40, ['always_on', 'brand'], ['search_text_a', 'search_text_b']),
  searchAd('Google Ads', 'Google', 20, ['always_on', 'shopping'], ['search_text_a', 'shopping_card']),
  searchAd('Daum Clicks', 'Daum', 10, ['always_on'], ['search_text_a']),
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

const direct: VisitSource = { referrer: undefined, ad: undefined };

/** The source of visits from an ad (one object per medium, keyword, campaign, content and device). */
function adSource(state: DayState, medium: AdMedium, keyword: string, device: Device): VisitSource {
  const { random } = state;
  const campaign = Math.floor(random() * medium.campaigns.length);
  const content = Math.floor(random() * medium.contents.length);
  const slots = state.adSlots(medium)(keyword);
  const slot = (campaign * medium.contents.length + content) * 2 + (device === 'pc' ? 0 : 1);
  slots[slot] ??= {
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
  return slots[slot];
}

/** Where a visit came from, and the product it landed on (if any). */
export function arrival(
  state: DayState,
  device: Device,
): { source: VisitSource; landing: SimulatedProduct | undefined } {
  const { pool, random, referredBy } = state;
  const r = random();
  if (r < 0.3) return { source: direct, landing: undefined };
  if (r < 0.48) {
    const engine = pick(state, engines);
    return {
      source: referredBy(engine[device]),
      landing: chance(state, 0.5) ? pick(state, pool) : undefined,
    };
  }
  if (r < 0.62) return { source: referredBy(pick(state, state.referrals)), landing: undefined };
  const medium = adMedia[drawIndex(state, adWeights, adWeightTotal)] as AdMedium;
  const landing = medium.engine === undefined || chance(state, 0.2) ? undefined : pick(state, pool);
  const keyword =
    medium.engine === undefined ? pick(state, medium.terms ?? ['']) : (landing?.keyword ?? state.mallId);
  return { source: adSource(state, medium, keyword, device), landing };
}
