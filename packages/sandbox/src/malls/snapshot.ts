// A mall's data as plain JSON, and back: every record of every table with its key, in insertion
// order, so a restored mall answers as the snapshotted one did. A snapshot is checked before
// anything is written (tables, entries, each record against the admin spec's schema, then
// snapshot-integrity.ts), and checking and restoring run in time slices.
import {
  clearStore,
  type SandboxStore,
  type StoredRecord,
  type TableName,
  tableNames,
} from '@mall-api/mall-state';
import { isJsonObject, type JsonObject, recordReferencesOf, type SpecModel } from '@mall-api/spec-model';
import type { Violation } from '../protocol.js';
import { bodyViolation as at } from '../sandbox-result.js';
import { memo } from '../support/memo.js';
import { inSlices } from '../support/time-slice.js';
import { type SchemaValidator, schemaViolations } from './schema-violations.js';
import { integrityViolations, recordSchemas } from './snapshot-integrity.js';

/** A mall's data as plain JSON. */
export interface MallSnapshot {
  readonly format: 'mall-api-sandbox-snapshot';
  readonly version: 1;
  readonly tables: { readonly [T in TableName]: readonly (readonly [string, StoredRecord])[] };
}

/** The snapshot of a store. */
export function snapshotOf(store: SandboxStore): MallSnapshot {
  const tables = {} as Record<TableName, [string, StoredRecord][]>;
  for (const table of tableNames) tables[table] = store.entries(table);
  return structuredClone({ format: 'mall-api-sandbox-snapshot', version: 1, tables });
}

/** What is wrong with the shape of a value offered as a snapshot (nothing: tables of [key, record] pairs). */
function shapeViolations(value: unknown): Violation[] {
  if (!isJsonObject(value)) return [at('snapshot', 'must be an object')];
  const violations: Violation[] = [];
  if (value.format !== 'mall-api-sandbox-snapshot')
    violations.push(at('format', 'must be mall-api-sandbox-snapshot'));
  if (value.version !== 1) violations.push(at('version', 'must be 1'));
  const tables = value.tables;
  if (!isJsonObject(tables)) return [...violations, at('tables', 'must be an object')];
  for (const name of Object.keys(tables))
    if (!(tableNames as readonly string[]).includes(name))
      violations.push(at(`tables.${name}`, `is not a table (${tableNames.join(', ')})`));
  for (const table of tableNames) {
    const entries = tables[table];
    if (!Array.isArray(entries)) {
      violations.push(at(`tables.${table}`, 'must be an array of [key, record] pairs'));
      continue;
    }
    entries.forEach((entry: unknown, index) => {
      if (
        !Array.isArray(entry) ||
        entry.length !== 2 ||
        typeof entry[0] !== 'string' ||
        !isJsonObject(entry[1])
      )
        violations.push(at(`tables.${table}/${index}`, 'must be a [key, record] pair'));
    });
  }
  return violations;
}

/**
 * Checks values offered as snapshots by the record schemas of `model` (the admin API's): the
 * returned function gives what is wrong with one (nothing: a snapshot safe to restore), checking
 * its records in time slices.
 */
export function createSnapshotCheck(model: SpecModel): (value: unknown) => Promise<Violation[]> {
  const compile = (schema: JsonObject) => model.schemas().compile(schema);
  const component = (name: string) => compile({ $ref: `#/components/schemas/${name}` });
  const tableChecks = new Map<TableName, SchemaValidator>(
    Object.entries(recordSchemas).map(([table, name]) => [table as TableName, component(name)]),
  );
  tableChecks.set(
    'sequence',
    compile({ type: 'object', required: ['value'], properties: { value: { type: 'integer' } } }),
  );
  tableChecks.set(
    'product',
    compile({
      type: 'object',
      required: ['bundle', 'record'],
      properties: { bundle: { type: 'boolean' }, record: { type: 'object' }, options: { type: 'array' } },
    }),
  );
  const references = memo((name: string) =>
    recordReferencesOf(model.dereference({ $ref: `#/components/schemas/${name}` })),
  );
  const product = component('Product');
  const bundle = component('BundleProduct');
  return async (value) => {
    const violations = shapeViolations(value);
    if (violations.length > 0) return violations;
    const { tables } = value as MallSnapshot;
    for (const table of tableNames)
      await inSlices(tables[table], ([, record], index) => {
        const name = `tables.${table}/${index}`;
        const found = schemaViolations(tableChecks.get(table) as SchemaValidator, record, name);
        if (found.length === 0 && table === 'product')
          found.push(...schemaViolations(record.bundle ? bundle : product, record.record, `${name}.record`));
        violations.push(...found);
      });
    return violations.length > 0 ? violations : integrityViolations(tables, references);
  };
}

/** Every record of a snapshot as a table, key and record: copied, or as they are when `shared`. */
function* snapshotRows(
  snapshot: MallSnapshot,
  shared: boolean,
): Generator<readonly [TableName, string, StoredRecord]> {
  for (const table of tableNames)
    for (const [key, record] of snapshot.tables[table])
      yield [table, key, shared ? record : structuredClone(record)];
}

/**
 * Replaces the store's records with the snapshot's (checked before; inside the caller's
 * transaction). `shared`: the snapshot's records are stored as they are, not copied — for a
 * snapshot nobody changes (stores never change a record in place, they put a changed copy), so
 * every new mall of a seed shares the seed's records until it writes its own.
 */
export function restoreInto(store: SandboxStore, snapshot: MallSnapshot, shared = false): void {
  clearStore(store);
  for (const [table, key, record] of snapshotRows(snapshot, shared)) store.put(table, key, record);
}

/**
 * Writes the snapshot's records into an empty (staged) store, one transaction per time slice;
 * `shared` as for {@link restoreInto}.
 */
export function restoreInSlices(store: SandboxStore, snapshot: MallSnapshot, shared = false): Promise<void> {
  return inSlices(
    snapshotRows(snapshot, shared),
    ([table, key, record]) => store.put(table, key, record),
    (run) => store.transaction(run),
  );
}
