// The fields naming other records (`x-refers-to`) and the per-shop attributes (`x-per-shop`) as the
// admin bundle declares them, and how a declaration reads.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json-document.js';
import {
  perShopAttributesOf,
  RecordReferenceError,
  recordReferencesOf,
  referencedResources,
  referencedValues,
  referenceExclusions,
} from './record-references.js';
import { loadSpecSync } from './spec-model.js';

const admin = loadSpecSync('admin');
const schema = (name: string) => admin.dereference({ $ref: `#/components/schemas/${name}` }) as JsonObject;
const requestOf = (operationId: string) => admin.dereference(admin.operation(operationId)?.bodySchema ?? {});
const places = (references: ReturnType<typeof recordReferencesOf>) =>
  references.map((r) => [r.at.join('/'), r.resource, r.except, r.topLevel]);

describe('recordReferencesOf', () => {
  it('finds every referring field of a request body, through lists and shared components', () => {
    expect(places(recordReferencesOf(requestOf('createBundleProduct')))).toEqual(
      expect.arrayContaining([
        ['request/bundle_product_components/*/product_no', 'product', ['self', 'bundle'], undefined],
        ['request/add_category_no/*/category_no', 'category', [], undefined],
        ['request/main/*', 'main-group', [], undefined],
        ['request/relational_product/*/product_no', 'product', ['self'], undefined],
      ]),
    );
    expect(places(recordReferencesOf(requestOf('createCategoryProduct')))).toEqual([
      ['request/product_no/*', 'product', [], undefined],
    ]);
  });

  it('finds the references of stored records, with the value naming the top level', () => {
    expect(places(recordReferencesOf(schema('Category')))).toEqual([
      ['parent_category_no', 'category', [], 1],
    ]);
    expect(places(recordReferencesOf(schema('Product'))).map(([at]) => at)).toEqual(
      expect.arrayContaining(['category/*/category_no', 'main/*', 'relational_product/*/product_no']),
    );
  });

  it('reaches each value with its path', () => {
    const [reference] = recordReferencesOf(requestOf('createCategoryProduct'));
    const values = referencedValues({ request: { product_no: [7, 9] } }, reference as never);
    expect(values.map(({ path, value }) => [path, value])).toEqual([
      [['request', 'product_no', 0], 7],
      [['request', 'product_no', 1], 9],
    ]);
  });

  it('refuses a declaration naming an unknown resource or exclusion', () => {
    const declared = (rule: JsonObject) => ({ properties: { no: { type: 'integer', 'x-refers-to': rule } } });
    expect(() => recordReferencesOf(declared({ resource: 'order' }))).toThrow(RecordReferenceError);
    expect(() => recordReferencesOf(declared({ resource: 'product', except: ['twin'] }))).toThrow(
      RecordReferenceError,
    );
  });
});

describe('perShopAttributesOf', () => {
  it("names a category's own settings but not use_display, which every shop shares", () => {
    const attributes = perShopAttributesOf(schema('Category'));
    expect(attributes).toEqual(expect.arrayContaining(['category_name', 'product_display_scope']));
    expect(attributes).not.toContain('use_display');
    expect(attributes).not.toContain('category_no');
  });

  it("names a product's price and retail price", () => {
    expect(perShopAttributesOf(schema('Product'))).toEqual(['price', 'retail_price']);
  });
});

describe('the lint and the reader', () => {
  it('know the same resources and exclusions', async () => {
    const lint = await import('../../../specs/lint/record-reference.js');
    expect(lint.referencedResources).toEqual([...referencedResources]);
    expect(lint.referenceExclusions).toEqual([...referenceExclusions]);
  });
});
