// Categories of the sandbox mall with the real service's integrity: four depths, an existing
// parent, derived `full_category_*` and `root_category_no`, display-set rules, deletion taking the
// sub-categories along. Shops share the tree; each keeps its `x-per-shop` attributes under
// `shopSettings`. Decoration images and SEO are category-settings.ts's.
import type { SandboxStore, StoredRecord } from '@mall-api/mall-state';
import { invalidField, notFound } from '../sandbox-result.js';
import { boundTo } from '../support/bound.js';
import { createCategorySettings } from './category-settings.js';
import { type ChildIndex, createChildIndex } from './child-index.js';
import type { RecordShapes } from './record-shapes.js';
import { settingsKey, takeOwn } from './shop-keys.js';

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
  /** What a shop other than the default one set for itself, by shop number (never answered). */
  shopSettings?: Record<string, Record<string, unknown>>;
}

/** Category number of the main (top) level: a parent of 1 makes a depth-1 category. */
export const mainCategoryNo = 1;
const maxDepth = 4;
/** Category numbers are issued after this one (the platform's first categories are in the 20s). */
const firstCategoryNo = 23;

const setPrefixes = { A: [''], G: ['normal_', 'recommend_', 'new_'] } as const;

const levels = ['1', '2', '3', '4'] as const;

/** One mall's categories: its store, the spec's record shapes, the tree index and the per-shop attributes. */
interface Categories {
  readonly store: SandboxStore;
  readonly shapes: RecordShapes;
  readonly tree: ChildIndex;
  /** The attributes each shop keeps for itself (`x-per-shop`). */
  readonly perShop: ReadonlySet<string>;
}

const stored = ({ store }: Categories, categoryNo: number) =>
  store.get<CategoryRecord>('category', String(categoryNo));

/** A stored category as shop `shopNo` shows it: its own settings and names over the shared record. */
function inShop(c: Categories, category: CategoryRecord, shopNo: number): CategoryRecord {
  if (shopNo === 1 && category.shopSettings === undefined) return category;
  const { shopSettings, ...shared } = category;
  if (shopNo === 1) return shared as CategoryRecord;
  const names: Record<string, string | null> = {};
  for (const level of levels) {
    const no = category.full_category_no[level];
    const named = no === null || no === undefined ? undefined : stored(c, Number(no));
    names[level] = named
      ? String(named.shopSettings?.[shopNo]?.category_name ?? named.category_name)
      : (category.full_category_name[level] ?? null);
  }
  return { ...shared, ...shopSettings?.[shopNo], shop_no: shopNo, full_category_name: names };
}

/** The category as shop `shopNo` (default 1) shows it, if it exists. */
function findCategory(c: Categories, categoryNo: number, shopNo = 1): CategoryRecord | undefined {
  const category = stored(c, categoryNo);
  return category && inShop(c, category, shopNo);
}

/** The category as shop `shopNo` (default 1) shows it; 404 when it does not exist. */
function getCategory(c: Categories, categoryNo: number, shopNo = 1): CategoryRecord {
  const category = findCategory(c, categoryNo, shopNo);
  if (!category) throw notFound(`Category ${categoryNo} does not exist.`);
  return category;
}

const children = (c: Categories, categoryNo: number) =>
  c.tree.childrenOf(categoryNo).map((no) => stored(c, no) as CategoryRecord);

/** The category and all categories below it. */
function subtree(c: Categories, categoryNo: number): CategoryRecord[] {
  const result = [getCategory(c, categoryNo)];
  for (let i = 0; i < result.length; i++)
    result.push(...children(c, (result[i] as CategoryRecord).category_no));
  return result;
}

/** The derived path attributes of a category under `parent` (undefined: a main category). */
function pathOf(categoryNo: number, name: string, parent: CategoryRecord | undefined) {
  const depth = parent ? parent.category_depth + 1 : 1;
  const fullName: Record<string, string | null> = {};
  const fullNo: Record<string, string | null> = {};
  for (const level of levels) {
    const index = Number(level);
    fullName[level] =
      index < depth ? (parent?.full_category_name[level] ?? null) : index === depth ? name : null;
    fullNo[level] =
      index < depth ? (parent?.full_category_no[level] ?? null) : index === depth ? String(categoryNo) : null;
  }
  return {
    category_depth: depth,
    parent_category_no: parent ? parent.category_no : mainCategoryNo,
    full_category_name: fullName,
    full_category_no: fullNo,
    root_category_no: parent ? parent.root_category_no : categoryNo,
  };
}

/** Display sets: each applicable set needs type, key and sort, and a period when the key is S or C. */
function checkDisplaySets(category: Record<string, unknown>): void {
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
}

/** Stores a category's record (and its place in the tree). */
const put = ({ store, tree }: Categories, category: CategoryRecord) =>
  tree.put(category, () => store.put('category', String(category.category_no), category));

/** Rewrites the derived path attributes of every category below a renamed one. */
function renameDescendants(c: Categories, category: CategoryRecord): void {
  for (const child of children(c, category.category_no)) {
    const moved = { ...child, ...pathOf(child.category_no, child.category_name, category) } as CategoryRecord;
    put(c, moved);
    renameDescendants(c, moved);
  }
}

function createCategory(c: Categories, shopNo: number, request: Record<string, unknown>): CategoryRecord {
  const { store, shapes, tree } = c;
  const parentNo =
    typeof request.parent_category_no === 'number' ? request.parent_category_no : mainCategoryNo;
  const parent = parentNo === mainCategoryNo ? undefined : stored(c, parentNo);
  if (parentNo !== mainCategoryNo && !parent) throw notFound(`Parent category ${parentNo} does not exist.`);
  if (parent && parent.category_depth >= maxDepth)
    throw invalidField(
      'request.parent_category_no',
      `is a depth-${parent.category_depth} category; a category cannot be deeper than ${maxDepth} levels`,
    );
  const { parent_category_no: _omit, ...fields } = request;
  const categoryNo = store.nextNumber('category_no', firstCategoryNo);
  const siblings = tree.childrenOf(parent ? parent.category_no : mainCategoryNo);
  const category = {
    ...shapes.newRecord('Category', 'createCategory'),
    ...shapes.acceptedFields('Category', fields),
    shop_no: 1,
    category_no: categoryNo,
    category_name: String(request.category_name),
    display_order: siblings.length + 1,
    ...pathOf(categoryNo, String(request.category_name), parent),
  } as CategoryRecord;
  checkDisplaySets(category);
  put(c, category);
  return inShop(c, category, shopNo);
}

function updateCategory(
  c: Categories,
  categoryNo: number,
  shopNo: number,
  request: Record<string, unknown>,
): CategoryRecord {
  const current = stored(c, categoryNo);
  if (!current) throw notFound(`Category ${categoryNo} does not exist.`);
  const parent = current.category_depth > 1 ? stored(c, current.parent_category_no) : undefined;
  const accepted = c.shapes.acceptedFields('Category', request);
  // Another shop keeps its own settings for itself; what every shop shares goes to the record.
  const shopSettings = takeOwn(accepted, c.perShop, shopNo, current.shopSettings);
  const name =
    shopNo === 1 && typeof request.category_name === 'string' ? request.category_name : current.category_name;
  const updated = {
    ...current,
    ...accepted,
    shop_no: 1,
    category_name: name,
    ...pathOf(categoryNo, name, parent),
    ...(shopSettings ? { shopSettings } : {}),
  } as CategoryRecord;
  const shown = inShop(c, updated, shopNo);
  checkDisplaySets(shown);
  put(c, updated);
  if (name !== current.category_name) renameDescendants(c, updated);
  return shown;
}

/** Deletes the category, its sub-categories and their per-shop settings; the numbers deleted. */
function deleteCategory(c: Categories, categoryNo: number): number[] {
  const { store } = c;
  const doomed = subtree(c, categoryNo).map((category) => category.category_no);
  const gone = new Set(doomed);
  for (const table of ['decoration', 'seo'] as const)
    for (const settings of store.all<StoredRecord>(table))
      if (gone.has(Number(settings.category_no)))
        store.delete(table, settingsKey(Number(settings.category_no), Number(settings.shop_no)));
  for (const no of doomed) store.delete('category', String(no));
  return doomed;
}

/** The category service of one mall over its store. */
export function createCategoryService(store: SandboxStore, shapes: RecordShapes) {
  const c: Categories = {
    store,
    shapes,
    tree: createChildIndex(store),
    perShop: new Set(shapes.perShopAttributes('Category')),
  };
  const exists = (categoryNo: number) => void getCategory(c, categoryNo);
  // Each shop's decoration images and SEO settings: the defaults until that shop writes them.
  const decoration = createCategorySettings(
    { store, shapes, exists },
    'decoration',
    'CategoryDecorationImage',
    'CardigansDecorationImages',
    (key) => (key.startsWith('use_') ? 'F' : null),
  );
  const seo = createCategorySettings(
    { store, shapes, exists },
    'seo',
    'CategorySeo',
    'CardigansSeo',
    (key) => (key === 'search_engine_exposure' ? 'F' : null),
  );
  const bound = boundTo(c);
  return {
    get: bound(getCategory),
    find: bound(findCategory),
    /** Every category as shop `shopNo` (default 1) shows it. */
    all: (shopNo = 1) => store.all<CategoryRecord>('category').map((category) => inShop(c, category, shopNo)),
    subtree: bound(subtree),
    create: bound(createCategory),
    update: bound(updateCategory),
    delete: bound(deleteCategory),
    decoration: decoration.read,
    updateDecoration: decoration.update,
    seo: seo.read,
    updateSeo: seo.update,
  };
}

/** The categories of one mall (see {@link createCategoryService}). */
export type CategoryService = ReturnType<typeof createCategoryService>;
