// The collection category codes the sandbox derives from a mall's category tree have the form the
// collection spec's examples show (`C100000`, `C100200`, `C100210`), so a documented code finds
// the sandbox's products.
import { describe, expect, it } from 'vitest';
import type { CategoryRecord } from '../catalogue/category-service.js';
import { collectionCodes } from './collection-view.js';

/** A category of the tree, with the fields the codes read. */
const category = (category_no: number, parent_category_no: number, category_depth: number) =>
  ({ category_no, parent_category_no, category_depth }) as CategoryRecord;

describe('collection category codes', () => {
  const tree = [
    category(24, 1, 1),
    category(25, 24, 2),
    category(26, 24, 2),
    category(27, 26, 3),
    category(28, 1, 1),
    category(29, 28, 2),
  ];
  const codesOf = collectionCodes(tree);

  it('number departments, sections and sub-sections in the documented seven-character form', () => {
    expect(codesOf(24)).toEqual(['C100000']);
    expect(codesOf(26)).toEqual(['C100000', 'C100200']);
    expect(codesOf(27)).toEqual(['C100000', 'C100200', 'C100210']);
    expect(codesOf(29)).toEqual(['C200000', 'C200100']);
  });

  it('give a category outside the tree no code', () => {
    expect(codesOf(999)).toEqual([]);
  });
});
