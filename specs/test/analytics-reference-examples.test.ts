// The analytics API's published example payloads (shared/reference/examples/analytics: the response
// samples of the platform's reference) validate against the response schemas of our analytics
// bundle — except for the deliberate differences listed here, each with its reason. A listed
// difference that no longer occurs fails the test too, so the list stays honest.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, referenceExamplesDir, schemaValidator } from './schema-validator.js';

const examplesDir = referenceExamplesDir('analytics');
const validate = schemaValidator(loadBundle('analytics'));

const load = (file: string): unknown => JSON.parse(readFileSync(join(examplesDir, file), 'utf8'));

/** Ajv's messages with the regular expression of a pattern error left out, so the keys stay readable. */
const errorsOf = (pointer: string, value: unknown): string[] =>
  validate(pointer, value)
    .map((e) => e.replace(/must match pattern ".*"$/, 'must match pattern'))
    .sort();

const bareDate =
  'The sample shows a bare date ("2023-01-01"). The seed says dates in responses are ISO 8601 date-times with +09:00, and three independent clients saw the live service send "2026-07-23T00:00+09:00"; we follow the seed and the service.';

/** Deliberate differences: `error path` → why our schema does not accept the published value. */
const deliberateDifferences: Record<string, Record<string, string>> = {
  'carts-action-1.json': {
    " must have required property 'action'":
      'The reference documents the key `count`; a client that called the live service in 2026 received `action`. We model what the service sends.',
  },
  'pages-view-1.json': {
    " must have required property 'view'":
      'The reference documents the key `pages`; two independent clients of the live service read `view`. We model what the service sends.',
  },
  'products-view-1.json': {
    " must have required property 'view'":
      'The reference documents the key `count`; three independent clients of the live service (one production code with measured values) read `view`. We model what the service sends.',
  },
  'sales-orderdetails-1.json': {
    '/orderdetails/0/order_date must match pattern': bareDate,
    '/orderdetails/1/order_date must match pattern': 'Same as the first record.',
    '/orderdetails/1/order_id must match pattern':
      'The second sample order ID "20240201-00000002" has eight digits after the dash, the first (and every platform order ID) seven: a documentation slip.',
  },
  'visitors-dailyactive-1.json': {
    '/dailyactive/0/date must match pattern': bareDate,
    '/dailyactive/1/date must match pattern': 'Same as the first record.',
  },
  'visitors-pageview-1.json': {
    '/pageview/0/date must match pattern': bareDate,
    '/pageview/1/date must match pattern': 'Same as the first record.',
  },
  'visitors-unique-1.json': {
    '/unique/0/date must match pattern': bareDate,
    '/unique/1/date must match pattern': 'Same as the first record.',
  },
  'visitors-view-1.json': {
    '/view/0/date must match pattern': bareDate,
    '/view/1/date must match pattern': 'Same as the first record.',
  },
  'visitpaths-ads-1.json': {
    '/ads/0/visit_count must be integer':
      'The sample holds the Korean placeholder text "순방문자수" ("unique visitors") instead of a value; the reference\'s property table gives the number 32. A visitor count is an integer.',
    '/ads/1/visit_count must be integer': 'Same placeholder ("순방문자수2").',
  },
};

/** The key the reference documents → the key the live service sends, for the keys we model differently. */
const keyRenames: Record<string, [string, string]> = {
  'carts-action-1.json': ['count', 'action'],
  'pages-view-1.json': ['pages', 'view'],
  'products-view-1.json': ['count', 'view'],
};

const cases: [string, string][] = [
  ['adeffect-addetails-1.json', '/components/schemas/AdEffectAdDetailsList'],
  ['carts-action-1.json', '/components/schemas/CartsActionList'],
  ['members-sales-1.json', '/components/schemas/MembersSalesList'],
  ['pages-view-1.json', '/components/schemas/PagesViewList'],
  ['products-categorydetails-1.json', '/components/schemas/ProductsCategoryDetailsList'],
  ['products-sales-1.json', '/components/schemas/ProductsSalesList'],
  ['products-view-1.json', '/components/schemas/ProductsViewList'],
  ['sales-orderdetails-1.json', '/components/schemas/SalesOrderDetailsList'],
  ['sales-paymethods-1.json', '/components/schemas/SalesPayMethodsList'],
  ['sales-pervisitors-1.json', '/components/schemas/SalesPerVisitorsList'],
  ['sales-times-1.json', '/components/schemas/SalesTimesList'],
  ['visitors-dailyactive-1.json', '/components/schemas/VisitorsDailyActiveList'],
  ['visitors-pageview-1.json', '/components/schemas/VisitorsPageViewList'],
  ['visitors-unique-1.json', '/components/schemas/VisitorsUniqueList'],
  ['visitors-view-1.json', '/components/schemas/VisitorsViewList'],
  ['visitpaths-adkeywordsales-1.json', '/components/schemas/VisitPathsAdKeywordSalesList'],
  ['visitpaths-ads-1.json', '/components/schemas/VisitPathsAdsList'],
  ['visitpaths-adsales-1.json', '/components/schemas/VisitPathsAdSalesList'],
  ['visitpaths-domains-1.json', '/components/schemas/VisitPathsDomainsList'],
  ['visitpaths-domainsales-1.json', '/components/schemas/VisitPathsDomainSalesList'],
  ['visitpaths-keyworddetails-1.json', '/components/schemas/VisitPathsKeywordDetailsList'],
  ['visitpaths-keywords-1.json', '/components/schemas/VisitPathsKeywordsList'],
  ['visitpaths-keywordsales-1.json', '/components/schemas/VisitPathsKeywordSalesList'],
  ['visitpaths-urls-1.json', '/components/schemas/VisitPathsUrlsList'],
];

describe('published analytics examples against our schemas', () => {
  it('every saved payload is checked', () => {
    const files = readdirSync(examplesDir).filter((f) => f.endsWith('.json'));
    expect(cases.map(([file]) => file).sort()).toEqual(files.sort());
  });

  it.each(cases)('%s validates except for its listed differences', (file, pointer) => {
    expect(errorsOf(pointer, load(file))).toEqual(Object.keys(deliberateDifferences[file] ?? {}).sort());
  });

  it.each(Object.entries(keyRenames))(
    '%s: with the documented key renamed to the live one, the records validate',
    (file, [documented, live]) => {
      const payload = load(file) as Record<string, unknown>;
      expect(Object.keys(payload)).toEqual([documented]);
      const pointer = cases.find(([f]) => f === file)?.[1] ?? '';
      expect(errorsOf(pointer, { [live]: payload[documented] })).toEqual([]);
    },
  );

  it('every listed difference has a reason', () => {
    for (const reasons of Object.values(deliberateDifferences)) {
      for (const reason of Object.values(reasons)) expect(reason.length).toBeGreaterThan(10);
    }
  });
});
