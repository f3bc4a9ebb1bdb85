// The integrity of a snapshot's records, checked after their schemas and before anything is
// restored: every record is stored under the key the services would give it (so it is served at
// its own URL), no key repeats within a table, and every reference names a record of the snapshot
// — a sub-category's parent, a category's decoration images and SEO, a placement's category (or
// main group) and product, a product's categories and main groups (in every shop), its related
// products, a bundle's components (existing products that are not bundles). Each violation names
// the record (`tables.<table>/<index>`).
import type { StoredRecord, TableName } from '@mall-api/mall-state';
import { mainCategoryNo } from '../catalogue/category-service.js';
import { mainKey, placementKey, settingsKey } from '../catalogue/shop-keys.js';
import type { Violation } from '../protocol.js';

/** A snapshot's tables: each a list of [key, record] pairs. */
type Tables = { readonly [T in TableName]: readonly (readonly [string, StoredRecord])[] };

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; their schemas were checked
type Loose = Record<string, any>;

/** The key each table's records are stored under (none for the sequences, named freely). */
const keyOf: { readonly [T in Exclude<TableName, 'sequence'>]: (record: Loose) => string } = {
  category: (c) => String(c.category_no),
  decoration: (d) => settingsKey(d.category_no, d.shop_no),
  seo: (s) => settingsKey(s.category_no, s.shop_no),
  main: (m) => String(m.display_group),
  product: (p) => String(p.record?.product_no),
  categoryPlacement: (p) => placementKey(p.category_no, p.display_group, p.product_no, p.shop_no),
  mainPlacement: (p) => mainKey(p.display_group, p.product_no, p.shop_no),
};

const listOf = (value: unknown): Loose[] => (Array.isArray(value) ? value : []);

const at = (table: TableName, index: number, message: string): Violation => ({
  location: 'body',
  name: `tables.${table}/${index}`,
  message,
});

/** What breaks the integrity of a snapshot's records (nothing: safe to restore). */
export function integrityViolations(tables: Tables): Violation[] {
  const violations: Violation[] = [];
  const keys = (table: TableName) => new Set(tables[table].map(([key]) => key));
  const categories = keys('category');
  const mains = keys('main');
  const products = new Map(tables.product.map(([key, entry]) => [key, entry as Loose]));
  const category = (no: unknown) => no === mainCategoryNo || categories.has(String(no));

  for (const table of Object.keys(keyOf) as (keyof typeof keyOf)[]) {
    const first = new Map<string, number>();
    tables[table].forEach(([key, record], index) => {
      const expected = keyOf[table](record as Loose);
      if (key !== expected)
        violations.push(at(table, index, `is stored under ${key} but is record ${expected}`));
      const earlier = first.get(key);
      if (earlier !== undefined)
        violations.push(at(table, index, `repeats the key ${key} of tables.${table}/${earlier}`));
      else first.set(key, index);
    });
  }
  /** The references of a table's record: each whether it names an existing record, and what it names. */
  const referencesOf: { readonly [T in TableName]?: (record: Loose) => [boolean, string][] } = {
    category: (c) => [[category(c.parent_category_no), `parent category ${c.parent_category_no}`]],
    decoration: (d) => [[categories.has(String(d.category_no)), `category ${d.category_no}`]],
    seo: (s) => [[categories.has(String(s.category_no)), `category ${s.category_no}`]],
    categoryPlacement: (p) => [
      [categories.has(String(p.category_no)), `category ${p.category_no}`],
      [products.has(String(p.product_no)), `product ${p.product_no}`],
    ],
    mainPlacement: (p) => [
      [mains.has(String(p.display_group)), `main group ${p.display_group}`],
      [products.has(String(p.product_no)), `product ${p.product_no}`],
    ],
    product: ({ record, shopPlacements }) => [
      ...[record, ...Object.values(shopPlacements ?? {})].flatMap((placed: Loose) => [
        ...listOf(placed?.category).map((c): [boolean, string] => [
          categories.has(String(c?.category_no)),
          `category ${c?.category_no}`,
        ]),
        ...listOf(placed?.main).map((group): [boolean, string] => [
          mains.has(String(group)),
          `main group ${group}`,
        ]),
      ]),
      ...listOf(record.relational_product).map((r): [boolean, string] => [
        products.has(String(r?.product_no)) && r?.product_no !== record.product_no,
        `related product ${r?.product_no} (not itself)`,
      ]),
      ...listOf(record.bundle_product_components).map((c): [boolean, string] => {
        const part = products.get(String(c?.product_no));
        return [
          part !== undefined && part.bundle !== true,
          `component product ${c?.product_no} (not a bundle)`,
        ];
      }),
    ],
  };
  for (const [table, references] of Object.entries(referencesOf) as [
    TableName,
    (r: Loose) => [boolean, string][],
  ][])
    for (const [index, [, record]] of tables[table].entries())
      for (const [exists, named] of references(record as Loose))
        if (!exists) violations.push(at(table, index, `refers to ${named}, which does not exist`));
  return violations;
}
