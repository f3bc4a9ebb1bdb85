// A record each category keeps per shop in a table of its own (decoration images, SEO): until a
// shop first writes it, it reads as every attribute of the spec's example at its default, and a
// shop's write leaves every other shop's record as it was.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import type { RecordShapes } from './record-shapes.js';
import { settingsKey } from './shop-keys.js';

/**
 * The settings kept in `table` with the attributes of the example `exampleName` (each at
 * `defaultOf`'s default) and the accepted fields of `schemaName`; `exists` refuses a category that
 * does not exist.
 */
export function createCategorySettings(
  {
    store,
    shapes,
    exists,
  }: { store: SandboxStore; shapes: RecordShapes; exists: (categoryNo: number) => void },
  table: 'decoration' | 'seo',
  schemaName: string,
  exampleName: string,
  defaultOf: (attribute: string) => unknown,
) {
  const attributes = Object.keys(shapes.template(exampleName));
  const read = (categoryNo: number, shopNo: number): StoredRecord => {
    const kept = store.get<StoredRecord>(table, settingsKey(categoryNo, shopNo));
    if (kept) return kept;
    exists(categoryNo);
    return {
      ...Object.fromEntries(attributes.map((key) => [key, defaultOf(key)])),
      shop_no: shopNo,
      category_no: categoryNo,
    };
  };
  return {
    read,
    update(categoryNo: number, shopNo: number, request: Record<string, unknown>): StoredRecord {
      const updated = {
        ...read(categoryNo, shopNo),
        ...shapes.acceptedFields(schemaName, request),
        shop_no: shopNo,
        category_no: categoryNo,
      };
      store.put(table, settingsKey(categoryNo, shopNo), updated);
      return updated;
    },
  };
}
