// The analytics API's published example payloads (test/reference-examples/analytics: the response
// samples of the platform's reference) validate against the response schemas of our analytics
// bundle — except for the deliberate differences listed here, each with its reason (documentation
// slips, not shapes of the live service). A listed difference that no longer occurs fails the test
// too, so the list stays honest. Where the live service differs from its reference (list keys,
// dates, the error form) the schemas accept both.
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

/** Deliberate differences: `error path` → why our schema does not accept the published value. */
const deliberateDifferences: Record<string, Record<string, string>> = {
  'sales-orderdetails-1.json': {
    '/orderdetails/1/order_id must match pattern':
      'The second sample order ID "20240201-00000002" has eight digits after the dash, the first (and every platform order ID) seven: a documentation slip.',
  },
  'visitpaths-ads-1.json': {
    '/ads/0/visit_count must be integer':
      'The sample holds the Korean placeholder text "순방문자수" ("unique visitors") instead of a value; the reference\'s property table gives the number 32. A visitor count is an integer.',
    '/ads/1/visit_count must be integer': 'Same placeholder ("순방문자수2").',
  },
};

/** The key the reference documents and the key the live service sends (and the mock sends). */
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
    '%s: the records validate under the documented key and under the live one',
    (file, [documented, live]) => {
      const payload = load(file) as Record<string, unknown>;
      expect(Object.keys(payload)).toEqual([documented]);
      const pointer = cases.find(([f]) => f === file)?.[1] ?? '';
      expect(errorsOf(pointer, payload)).toEqual([]);
      expect(errorsOf(pointer, { [live]: payload[documented] })).toEqual([]);
      expect(errorsOf(pointer, { other: payload[documented] })).not.toEqual([]);
    },
  );

  it('the analytics error the live service sends (integer code, no more_info) validates, as does the mock’s', () => {
    const envelope = '/components/schemas/AnalyticsErrorEnvelope';
    expect(errorsOf(envelope, { error: { code: 403, message: 'INVALID SCOPE' } })).toEqual([]);
    expect(
      errorsOf(envelope, {
        error: { code: 'forbidden', message: 'The token lacks mall.read_analytics.', more_info: {} },
      }),
    ).toEqual([]);
    expect(errorsOf(envelope, { error: { code: 'forbidden', message: 'no more_info' } })).not.toEqual([]);
  });

  it('every listed difference has a reason', () => {
    for (const reasons of Object.values(deliberateDifferences)) {
      for (const reason of Object.values(reasons)) expect(reason.length).toBeGreaterThan(10);
    }
  });
});
