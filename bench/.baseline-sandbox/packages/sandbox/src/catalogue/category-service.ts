// Categories of the sandbox mall with the integrity the real service keeps: four depths, a parent
// that exists, the derived `full_category_*` and `root_category_no` kept right when a name
// changes, display-set rules checked against the stored values on update, decoration images and
// SEO per category, and deletion that takes the sub-categories with it (catalogue.ts removes their
// placements too). Listing, filters and paging live in views/list-query.ts.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import { createChildIndex } from './child-index.js';
import type { RecordShapes } from './record-shapes.js';
import { invalidField, notFound } from './refusal.js';

/** A stored category (the response record). */
export interface CategoryRecord extends StoredRecord {
  shop_no: number;
  category_no: number;
  category_depth: number;
  parent_category_no: number;
  category_name: string;
  full_category_name: Record<string, string | null>;
  full_category_no: Record<string, string | null>;
  root_category_no: number;
  display_order: number;
}

/** Category number of the main (top) level: a parent of 1 makes a depth-1 category. */
export const mainCategoryNo = 1;
const maxDepth = 4;
/** Category numbers are issued after this one (the platform's first categories are in the 20s). */
const firstCategoryNo = 23;

const setPrefixes = { A: [''], G: ['normal_', 'recommend_', 'new_'] } as const;

export interface CategoryService {
  get(categoryNo: number): CategoryRecord;
  find(categoryNo: number): CategoryRecord | undefined;
  all(): CategoryRecord[];
  create(shopNo: number, request: Record<string, unknown>): CategoryRecord;
  update(categoryNo: number, shopNo: number, request: Record<string, unknown>): CategoryRecord;
  /** Deletes the category and its sub-categories (not their placements); returns the numbers deleted. */
  delete(categoryNo: number): number[];
  /** The category and all categories below it. */
  subtree(categoryNo: number): CategoryRecord[];
  decoration(categoryNo: number): StoredRecord;
  updateDecoration(categoryNo: number, shopNo: number, request: Record<string, unknown>): StoredRecord;
  seo(categoryNo: number): StoredRecord;
  updateSeo(categoryNo: number, shopNo: number, request: Record<string, unknown>): StoredRecord;
}

const levels = ['1', '2', '3', '4'] as const;

export function createCategoryService(store: SandboxStore, shapes: RecordShapes): CategoryService {
  const base = (() => {
    const template = shapes.template('CategoryCreated');
    for (const key of Object.keys(template))
      if (key.endsWith('_product_display_period')) template[key] = null;
    // Recently added first: a key that needs no period, so a bare create is complete.
    template.product_display_key = 'A';
    return template;
  })();

  const find = (categoryNo: number) => store.get<CategoryRecord>('category', String(categoryNo));
  const get = (categoryNo: number) => {
    const category = find(categoryNo);
    if (!category) throw notFound(`Category ${categoryNo} does not exist.`);
    return category;
  };
  const tree = createChildIndex(store);
  const children = (categoryNo: number) =>
    tree.childrenOf(categoryNo).map((no) => find(no) as CategoryRecord);
  const subtree = (categoryNo: number): CategoryRecord[] => {
    const root = get(categoryNo);
    const result = [root];
    for (let i = 0; i < result.length; i++)
      result.push(...children((result[i] as CategoryRecord).category_no));
    return result;
  };

  /** The derived path attributes of a category under `parent` (undefined: a main category). */
  const pathOf = (categoryNo: number, name: string, parent: CategoryRecord | undefined) => {
    const depth = parent ? parent.category_depth + 1 : 1;
    const fullName: Record<string, string | null> = {};
    const fullNo: Record<string, string | null> = {};
    for (const level of levels) {
      const index = Number(level);
      fullName[level] =
        index < depth ? (parent?.full_category_name[level] ?? null) : index === depth ? name : null;
      fullNo[level] =
        index < depth
          ? (parent?.full_category_no[level] ?? null)
          : index === depth
            ? String(categoryNo)
            : null;
    }
    return {
      category_depth: depth,
      parent_category_no: parent ? parent.category_no : mainCategoryNo,
      full_category_name: fullName,
      full_category_no: fullNo,
      root_category_no: parent ? parent.root_category_no : categoryNo,
    };
  };

  /** Display sets: each applicable set needs type, key and sort, and a period when the key is S or C. */
  const checkDisplaySets = (category: Record<string, unknown>) => {
    const scope = category.product_display_scope === 'G' ? 'G' : 'A';
    for (const prefix of setPrefixes[scope]) {
      for (const part of ['type', 'key', 'sort']) {
        const field = `${prefix}product_display_${part}`;
        if (category[field] === null || category[field] === undefined)
          throw invalidField(`request.${field}`, `is required when product_display_scope is ${scope}`);
      }
      const key = category[`${prefix}product_display_key`];
      const period = `${prefix}product_display_period`;
      if ((key === 'S' || key === 'C') && (category[period] === null || category[period] === undefined))
        throw invalidField(
          `request.${period}`,
          `is required when ${prefix}product_display_key is ${String(key)}`,
        );
    }
  };

  const renameDescendants = (category: CategoryRecord) => {
    for (const child of children(category.category_no)) {
      const moved = {
        ...child,
        ...pathOf(child.category_no, child.category_name, category),
      } as CategoryRecord;
      tree.put(moved, () => store.put('category', String(child.category_no), moved));
      renameDescendants(moved);
    }
  };

  /**
   * A record kept per category in `table` (decoration images, SEO): until first written it reads as
   * every attribute of the example `exampleName` at its default, for the category's shop.
   */
  const settingsOf = (
    table: 'decoration' | 'seo',
    schemaName: string,
    exampleName: string,
    defaultOf: (attribute: string) => unknown,
  ) => {
    const attributes = Object.keys(shapes.template(exampleName));
    const read = (categoryNo: number): StoredRecord =>
      store.get(table, String(categoryNo)) ?? {
        ...Object.fromEntries(attributes.map((key) => [key, defaultOf(key)])),
        shop_no: get(categoryNo).shop_no,
        category_no: categoryNo,
      };
    const update = (categoryNo: number, shopNo: number, request: Record<string, unknown>) => {
      const updated = {
        ...read(categoryNo),
        ...shapes.acceptedFields(schemaName, request),
        shop_no: shopNo,
        category_no: categoryNo,
      };
      store.put(table, String(categoryNo), updated);
      return updated;
    };
    return { read, update };
  };
  const decoration = settingsOf(
    'decoration',
    'CategoryDecorationImage',
    'CardigansDecorationImages',
    (key) => (key.startsWith('use_') ? 'F' : null),
  );
  const seo = settingsOf('seo', 'CategorySeo', 'CardigansSeo', (key) =>
    key === 'search_engine_exposure' ? 'F' : null,
  );

  return {
    get,
    find,
    all: () => store.all<CategoryRecord>('category'),
    subtree,
    create(shopNo, request) {
      const parentNo =
        typeof request.parent_category_no === 'number' ? request.parent_category_no : mainCategoryNo;
      const parent = parentNo === mainCategoryNo ? undefined : find(parentNo);
      if (parentNo !== mainCategoryNo && !parent)
        throw notFound(`Parent category ${parentNo} does not exist.`);
      if (parent && parent.category_depth >= maxDepth)
        throw invalidField(
          'request.parent_category_no',
          `is a depth-${parent.category_depth} category; a category cannot be deeper than ${maxDepth} levels`,
        );
      const { parent_category_no: _omit, ...fields } = request;
      const categoryNo = store.nextNumber('category_no', firstCategoryNo);
      const siblings = tree.childrenOf(parent ? parent.category_no : mainCategoryNo);
      const category = {
        ...base,
        hash_tags: [],
        ...shapes.acceptedFields('Category', fields),
        shop_no: shopNo,
        category_no: categoryNo,
        category_name: String(request.category_name),
        display_order: siblings.length + 1,
        ...pathOf(categoryNo, String(request.category_name), parent),
      } as CategoryRecord;
      checkDisplaySets(category);
      tree.put(category, () => store.put('category', String(categoryNo), category));
      return category;
    },
    update(categoryNo, shopNo, request) {
      const current = get(categoryNo);
      const parent = current.category_depth > 1 ? find(current.parent_category_no) : undefined;
      const name = typeof request.category_name === 'string' ? request.category_name : current.category_name;
      const updated = {
        ...current,
        ...shapes.acceptedFields('Category', request),
        shop_no: shopNo,
        category_name: name,
        ...pathOf(categoryNo, name, parent),
      } as CategoryRecord;
      checkDisplaySets(updated);
      tree.put(updated, () => store.put('category', String(categoryNo), updated));
      if (name !== current.category_name) renameDescendants(updated);
      return updated;
    },
    delete(categoryNo) {
      const doomed = subtree(categoryNo).map((c) => c.category_no);
      for (const no of doomed) {
        store.delete('category', String(no));
        store.delete('decoration', String(no));
        store.delete('seo', String(no));
      }
      return doomed;
    },
    decoration: decoration.read,
    updateDecoration: decoration.update,
    seo: seo.read,
    updateSeo: seo.update,
  };
}
