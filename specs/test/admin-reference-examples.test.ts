// The platform's published admin example payloads (specs/test/reference-examples/admin, see its
// INDEX.md) validate against the schemas of our admin bundle — after two mechanical steps and
// except for the deliberate differences listed here, each with its reason. A listed difference
// that no longer occurs fails the test too, so the list stays honest.
//
// Mechanical steps, nothing else is changed:
// 1. Doc artifact named by INDEX.md: the OAuth token examples keep an invalid trailing comma after
//    the last `scopes` item; trailing commas before `]` or `}` are removed so the text parses.
//    (`{mallid}` and `{domain}` placeholders sit inside strings and are left as they are.)
// 2. The seed's names: the seed calls `use_naverpay`/`naverpay_type` `use_partnerpay`/
//    `partnerpay_type` and `tax_rate` `tax_amount`; the seed wins, so the keys are renamed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, referenceExamplesDir, schemaValidator } from './schema-validator.js';

const examplesDir = referenceExamplesDir('admin');
const validate = schemaValidator(loadBundle('admin'));

const read = (file: string) => readFileSync(join(examplesDir, file), 'utf8');
/** Step 1: removes trailing commas (the doc artifact INDEX.md names in the OAuth examples). */
const stripTrailingCommas = (text: string) => text.replace(/,(\s*[\]}])/g, '$1');
/** Step 2: applies the seed's names to the reference's keys. */
const seedNames = (text: string) =>
  text
    .replace(/"use_naverpay"/g, '"use_partnerpay"')
    .replace(/"naverpay_type"/g, '"partnerpay_type"')
    .replace(/"tax_rate"/g, '"tax_amount"');
const load = (file: string): unknown => JSON.parse(seedNames(stripTrailingCommas(read(file))));
const errorsOf = (pointer: string, value: unknown) => [...new Set(validate(pointer, value))].sort();

const scopesPlaceholder = {
  '/scopes/3 must match pattern "^mall\\.[a-z][a-z_]*$"':
    'The published scope list ends with the elision placeholder "...etc...", which is not a scope; our items must look like mall.read_x, mall.write_x or an alias such as mall.analytics.',
};
const partnerpayNull = {
  '/request/use_partnerpay must be string':
    'The published request sends null for the partner payment flag of a bundle; our request takes T or F only (omit the field instead of sending null).',
  '/request/use_partnerpay must be equal to one of the allowed values': 'Same null as above.',
  '/request/partnerpay_type must be string':
    'Same: null sent for the partner payment type; we take C or O only.',
  '/request/partnerpay_type must be equal to one of the allowed values': 'Same null as above.',
};

/** Deliberate differences: `error path` → why our schema does not accept the published value. */
const deliberateDifferences: Record<string, Record<string, string>> = {
  'bundleproducts-create-request-1.json': partnerpayNull,
  'bundleproducts-update-request-1.json': partnerpayNull,
  'oauth-token-authorization-code-1.json': scopesPlaceholder,
  'oauth-token-authorization-code-2.json': scopesPlaceholder,
  'oauth-token-refresh-token-1.json': scopesPlaceholder,
  'error-envelope-1.json': {
    '/error/code must be equal to one of the allowed values':
      'The published envelope carries the placeholder code "error code"; the platform publishes no code catalogue, and the codes of our shared envelope are our own.',
  },
};

const schema = (name: string) => `/components/schemas/${name}`;
const cases: [string, string][] = [
  ['categories-list-1.json', schema('CategoryList')],
  ['categories-count-1.json', schema('ResourceCount')],
  ['categories-get-1.json', schema('CategoryResult')],
  ['categories-create-1.json', schema('CategoryResult')],
  ['categories-create-request-1.json', schema('CreateCategoryRequest')],
  ['categories-update-1.json', schema('CategoryResult')],
  ['categories-update-request-1.json', schema('UpdateCategoryRequest')],
  ['categories-delete-1.json', schema('CategoryDeleteResult')],
  ['categories-decorationimages-list-1.json', schema('CategoryDecorationImageResult')],
  ['categories-decorationimages-update-1.json', schema('CategoryDecorationImageResult')],
  ['categories-seo-list-1.json', schema('CategorySeoResult')],
  ['categories-seo-update-1.json', schema('CategorySeoResult')],
  ['mains-list-1.json', schema('MainList')],
  ['mains-list-2.json', schema('MainList')],
  ['categories-products-list-1.json', schema('CategoryProductList')],
  ['categories-products-count-1.json', schema('ResourceCount')],
  ['categories-products-create-1.json', schema('CategoryProductCreateResult')],
  ['categories-products-update-1.json', schema('CategoryProductUpdateResult')],
  ['categories-products-delete-1.json', schema('CategoryProductDeleteResult')],
  ['mains-products-list-1.json', schema('MainProductList')],
  ['mains-products-count-1.json', schema('ResourceCount')],
  ['mains-products-create-1.json', schema('MainProductCreateResult')],
  ['mains-products-update-1.json', schema('MainProductUpdateResult')],
  ['mains-products-update-2.json', schema('MainProductUpdateResult')],
  ['mains-products-delete-1.json', schema('MainProductDeleteResult')],
  ['bundleproducts-list-1.json', schema('BundleProductList')],
  ['bundleproducts-list-2.json', schema('BundleProductList')],
  ['bundleproducts-get-1.json', schema('BundleProductResult')],
  ['bundleproducts-create-1.json', schema('BundleProductResult')],
  ['bundleproducts-create-request-1.json', schema('CreateBundleProductRequest')],
  ['bundleproducts-update-1.json', schema('BundleProductResult')],
  ['bundleproducts-update-request-1.json', schema('UpdateBundleProductRequest')],
  ['bundleproducts-delete-1.json', schema('BundleProductDeleteResult')],
  ['products-list-1.json', schema('ProductList')],
  ['products-list-2.json', schema('ProductList')],
  ['products-count-1.json', schema('ResourceCount')],
  ['products-get-1.json', schema('ProductResult')],
  ['products-get-2.json', schema('ProductResult')],
  ['products-create-1.json', schema('ProductResult')],
  ['products-create-2.json', schema('ProductResult')],
  ['products-create-request-1.json', schema('CreateProductRequest')],
  ['products-update-1.json', schema('ProductResult')],
  ['products-update-2.json', schema('ProductResult')],
  ['products-update-request-1.json', schema('UpdateProductRequest')],
  ['products-delete-1.json', schema('ProductDeleteResult')],
  ['oauth-token-authorization-code-1.json', schema('AccessToken')],
  ['oauth-token-authorization-code-2.json', schema('AccessToken')],
  ['oauth-token-refresh-token-1.json', schema('AccessToken')],
  ['error-envelope-1.json', '/components/schemas/ErrorEnvelope'],
  ['kangHo-Jun_web_cadalog_ver10-oauth-authorize-error-1.json', schema('OAuthError')],
];

describe('published admin examples against our schemas', () => {
  it('cover every payload file of the examples folder', () => {
    const files = readdirSync(examplesDir).filter((f) => f.endsWith('.json'));
    expect(cases.map(([file]) => file).sort()).toEqual(files.sort());
  });

  it('list differences only for files that are validated', () => {
    const validated = new Set(cases.map(([file]) => file));
    for (const file of Object.keys(deliberateDifferences)) expect(validated.has(file)).toBe(true);
  });

  it.each(cases)('%s validates except for its listed differences', (file, pointer) => {
    expect(errorsOf(pointer, load(file))).toEqual(Object.keys(deliberateDifferences[file] ?? {}).sort());
  });

  it('the trailing-comma repair is needed: the OAuth examples do not parse as published', () => {
    expect(() => JSON.parse(read('oauth-token-authorization-code-1.json'))).toThrow(SyntaxError);
  });

  it("the seed's names are needed: the published requests use the reference's keys", () => {
    for (const file of ['products-create-request-1.json', 'bundleproducts-create-request-1.json']) {
      const text = read(file);
      expect(text).toMatch(/"use_naverpay"|"tax_rate"/);
      const raw = JSON.parse(stripTrailingCommas(text));
      const pointer = file.startsWith('products')
        ? schema('CreateProductRequest')
        : schema('CreateBundleProductRequest');
      expect(errorsOf(pointer, raw)).toContain('/request must NOT have additional properties');
    }
  });
});
