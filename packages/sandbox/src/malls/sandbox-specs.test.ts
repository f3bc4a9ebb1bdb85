// The sandbox follows the specs it is given, not the shipped bundles: with an admin spec whose
// category names are at most 5 characters and which has no `countProducts`, a fixture and a
// snapshot with a longer name are refused naming the field, and the sandbox no longer claims the
// removed operation — while a sandbox on the shipped specs accepts all three.
import { type ApiSpecs, createSpecModel, type JsonObject, loadSpecs } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxMalls, type SandboxMalls } from './sandbox-malls.js';

const shipped = await loadSpecs();

/** The shipped admin spec with category names of at most 5 characters and no countProducts. */
function changedAdmin(): JsonObject {
  const document = structuredClone(shipped.admin.document) as JsonObject & {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, { properties: Record<string, JsonObject> }> };
  };
  const { CreateCategoryRequest, Category } = document.components.schemas;
  const request = CreateCategoryRequest?.properties.request as { properties: Record<string, JsonObject> };
  for (const properties of [request.properties, Category?.properties])
    (properties?.category_name as JsonObject).maxLength = 5;
  const counted = document.paths['/api/v2/admin/products/count'];
  expect(counted?.get).toMatchObject({ operationId: 'countProducts' });
  delete counted?.get;
  return document;
}

const longName = { categories: [{ category_name: 'Cardigans' }] };

describe('a sandbox given changed specs', () => {
  let changed: SandboxMalls;
  let standard: SandboxMalls;
  beforeAll(async () => {
    const specs: ApiSpecs = { ...shipped, admin: createSpecModel(changedAdmin()) };
    changed = await createSandboxMalls({ newMall: 'empty', specs });
    standard = await createSandboxMalls({ newMall: 'empty' });
  });
  afterAll(async () => {
    await changed?.close();
    await standard?.close();
  });

  it('checks fixtures against the given spec', async () => {
    expect(await standard.loadFixture('a', longName)).toMatchObject({ ok: true });
    const refused = await changed.loadFixture('a', longName);
    expect(refused).toMatchObject({ ok: false, reason: 'invalid' });
    expect(refused.ok ? [] : refused.violations.map((v) => v.name)).toEqual(['categories/0.category_name']);
    expect((await changed.snapshot('a'))?.tables.category ?? []).toEqual([]);
  });

  it('checks snapshot records against the given spec', async () => {
    expect(await standard.loadFixture('b', longName)).toMatchObject({ ok: true });
    const snapshot = await standard.snapshot('b');
    const refused = await changed.restore('b', snapshot);
    expect(refused.ok ? [] : refused.violations.map((v) => v.name)).toEqual([
      expect.stringMatching(/^tables\.category\/\d+\.category_name$/),
    ]);
    expect(await standard.restore('c', snapshot)).toMatchObject({ ok: true });
  });

  it('answers only the operations the given spec describes', async () => {
    expect(standard.handles('admin', 'countProducts')).toBe(true);
    expect(changed.handles('admin', 'countProducts')).toBe(false);
    expect(changed.handles('admin', 'countCategories')).toBe(true);
    await expect(
      changed.handle({
        api: 'admin',
        operationId: 'countProducts',
        path: {},
        query: {},
        body: undefined,
        mallId: 'a',
      }),
    ).rejects.toThrow(/does not handle admin countProducts/);
  });
});
