// The stateful sequences come from the spec's links: each admin create operation whose 201 links
// to the read and the delete of what it created makes one, and a link taken out of a copy of the
// spec takes its step out of the sequence.
import { createSpecModel, type JsonObject, loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { findSequences } from './sequence-checks.js';

const admin = await loadSpec('admin');
const summary = (model: typeof admin) =>
  findSequences(model).map((s) =>
    [s.create, s.read.operation, s.list?.operation, s.update?.operation, s.remove.operation].map(
      (o) => o?.operationId,
    ),
  );

describe('sequences from links', () => {
  it('makes one sequence per create operation the admin spec links, with its read, list, update and delete', () => {
    expect(summary(admin)).toEqual(
      expect.arrayContaining([
        ['createCategory', 'getCategory', 'listCategories', 'updateCategory', 'deleteCategory'],
        ['createProduct', 'getProduct', 'listProducts', 'updateProduct', 'deleteProduct'],
        [
          'createBundleProduct',
          'getBundleProduct',
          'listBundleProducts',
          'updateBundleProduct',
          'deleteBundleProduct',
        ],
      ]),
    );
    expect(summary(admin)).toHaveLength(3);
  });

  it('follows the links only: without its update link a sequence has no update, without its read link there is none', () => {
    const document = structuredClone(admin.document);
    const created = (
      ((document.paths as JsonObject)['/api/v2/admin/categories'] as JsonObject).post as JsonObject
    ).responses as JsonObject;
    const links = (created['201'] as JsonObject).links as JsonObject;
    delete links.UpdateCategory;
    expect(
      summary(createSpecModel(document)).find(([create]) => create === 'createCategory')?.[3],
    ).toBeUndefined();
    delete links.GetCategory;
    expect(summary(createSpecModel(document)).map(([create]) => create)).not.toContain('createCategory');
  });
});
