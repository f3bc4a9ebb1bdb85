// The sub-categories of each category, kept as categories are written so a create costs the same
// however many exist (a scan per create made loading a fixture quadratic). A write through `put`
// keeps it current; any other change to the category table (a delete, an undone transaction, a
// restore) moves the table's revision, and the index rebuilds in one pass on its next read.
import type { SandboxStore } from '@mall-api/mall-state';

/** What the index reads of a category. */
interface Linked {
  readonly category_no: number;
  readonly parent_category_no: number;
}

/** Creates the index over the store's category table: the category numbers under each parent, in the order they were added. */
export function createChildIndex(store: SandboxStore) {
  let byParent = new Map<number, number[]>();
  let known = new Set<number>();
  let revision = -1;
  const current = () => {
    if (revision === store.revision('category')) return;
    byParent = new Map();
    known = new Set();
    for (const category of store.all<Linked & Record<string, unknown>>('category')) add(category);
    revision = store.revision('category');
  };
  const add = (category: Linked) => {
    known.add(category.category_no);
    const siblings = byParent.get(category.parent_category_no);
    if (siblings) siblings.push(category.category_no);
    else byParent.set(category.parent_category_no, [category.category_no]);
  };
  return {
    /** The numbers of the categories whose parent is `parentNo`. */
    childrenOf(parentNo: number): readonly number[] {
      current();
      return byParent.get(parentNo) ?? [];
    },
    /** Runs `write`, which stores `category` (new, or with its parent unchanged), keeping the index current. */
    put(category: Linked, write: () => void): void {
      current();
      write();
      if (!known.has(category.category_no)) add(category);
      revision = store.revision('category');
    },
  };
}

/** The sub-categories of each category (see {@link createChildIndex}). */
export type ChildIndex = ReturnType<typeof createChildIndex>;
