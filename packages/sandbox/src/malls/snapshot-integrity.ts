// The integrity of a snapshot's records, checked after their schemas and before anything is
// restored: each record under the key the services would give it, no repeated key, every
// `x-refers-to` field (for every shop a product is shown in) naming a record of the snapshot it may
// name, and each placement's category or main group existing.
import type { StoredRecord, TableName } from '@mall-api/mall-state';
import type { RecordReference, ReferencedResource } from '@mall-api/spec-model';
import {
  type BrokenReference,
  brokenReferences,
  nouns,
  type ReferenceLookups,
  resourceTables,
} from '../catalogue/reference-check.js';
import { mainKey, placementKey, settingsKey } from '../catalogue/shop-keys.js';
import type { Violation } from '../protocol.js';
import { bodyViolation } from '../sandbox-result.js';
import { memo } from '../support/memo.js';

/** A snapshot's tables: each a list of [key, record] pairs. */
type Tables = { readonly [T in TableName]: readonly (readonly [string, StoredRecord])[] };

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; their schemas were checked
type Loose = Record<string, any>;

/** The admin spec's schema of the records each table holds (a product entry wraps its record). */
export const recordSchemas: { readonly [T in Exclude<TableName, 'product' | 'sequence'>]: string } = {
  category: 'Category',
  decoration: 'CategoryDecorationImage',
  seo: 'CategorySeo',
  main: 'Main',
  categoryPlacement: 'CategoryProduct',
  mainPlacement: 'MainProduct',
};

/**
 * The record a placement is kept under, part of its key rather than of its schema: the category
 * (or main group) whose section it is in.
 */
const ownerOf: { readonly [T in TableName]?: (record: Loose) => [ReferencedResource, unknown] } = {
  categoryPlacement: (p) => ['category', p.category_no],
  mainPlacement: (p) => ['main-group', p.display_group],
};

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

const at = (table: TableName, index: number, message: string) =>
  bodyViolation(`tables.${table}/${index}`, message);

/**
 * What breaks the integrity of a snapshot's records (nothing: safe to restore); `references` gives
 * the fields of a schema component's records that name other records (`x-refers-to`).
 */
export function integrityViolations(
  tables: Tables,
  references: (schemaName: string) => readonly RecordReference[],
): Violation[] {
  const violations: Violation[] = [];
  /** The keys of each table a reference can name, each read once. */
  const keys = memo((table: TableName) => new Set(tables[table].map(([key]) => key)));
  const products = new Map(tables.product.map(([key, entry]) => [key, entry as Loose]));

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
  const lookups: ReferenceLookups = {
    exists: (resource, value) => keys(resourceTables[resource]).has(String(value)),
    isBundle: (value) => products.get(String(value))?.bundle === true,
  };
  const refused = (table: TableName, index: number, broken: BrokenReference[]) => {
    for (const { path, message } of broken) violations.push(at(table, index, `${path.join('/')} ${message}`));
  };
  for (const table of Object.keys(recordSchemas) as (keyof typeof recordSchemas)[]) {
    const declared = references(recordSchemas[table]);
    tables[table].forEach(([, record], index) => {
      refused(table, index, brokenReferences(declared, record, lookups));
      const owner = ownerOf[table]?.(record as Loose);
      if (owner && !lookups.exists(owner[0], owner[1]))
        violations.push(
          at(table, index, `is kept under ${nouns[owner[0]]} ${owner[1]}, which does not exist`),
        );
    });
  }
  // A product's attributes in every shop (the default shop's record, another shop's placements).
  tables.product.forEach(([, entry], index) => {
    const { record, bundle, shopPlacements } = entry as Loose;
    const declared = references(bundle ? 'BundleProduct' : 'Product');
    for (const shown of [record, ...Object.values(shopPlacements ?? {})])
      refused('product', index, brokenReferences(declared, shown, lookups, record?.product_no));
  });
  return violations;
}
