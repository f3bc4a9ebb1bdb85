// The control API and the sandbox follow the specs the mocks serve: with an admin spec that has an
// extra operation (`countScratchNotes`) and category names of at most 5 characters, a fault and a
// journal filter naming the extra operation are accepted, one naming an operation no spec has is
// refused with 422 naming the field, and a fixture is checked against the changed category schema.
import { createSpecModel, type JsonObject, loadSpec } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServers } from '../server/mock-server.js';

const scratchPath = '/api/v2/admin/scratchnotes/count';

/** The shipped admin spec plus `countScratchNotes` (a copy of countCategories) and 5-character category names. */
async function changedAdmin(): Promise<JsonObject> {
  const document = structuredClone((await loadSpec('admin')).document) as JsonObject & {
    paths: Record<string, { get?: JsonObject }>;
    components: { schemas: Record<string, { properties: Record<string, JsonObject> }> };
  };
  const model = document.paths['/api/v2/admin/categories/count']?.get;
  expect(model?.operationId).toBe('countCategories');
  document.paths[scratchPath] = { get: { ...model, operationId: 'countScratchNotes' } };
  const request = document.components.schemas.CreateCategoryRequest?.properties.request as {
    properties: Record<string, JsonObject>;
  };
  (request.properties.category_name as JsonObject).maxLength = 5;
  return document;
}

describe('the control API and the sandbox of mocks serving a changed spec', () => {
  let served: Awaited<ReturnType<typeof startMockServers>>;
  let base = '';
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/__mock/malls/scratch/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, never> };
  };
  const violationNames = (body: { error?: { more_info?: { violations?: { name: string }[] } } }) =>
    body.error?.more_info?.violations?.map((v) => v.name);

  beforeAll(async () => {
    served = await startMockServers({
      apis: ['admin'],
      ports: { admin: 0 },
      specs: { admin: createSpecModel(await changedAdmin()) },
      sandbox: { seed: 1 },
    });
    base = served.mocks[0]?.url ?? '';
  });
  afterAll(() => served?.close());

  it('accepts a fault on an operation only the served spec has', async () => {
    const added = await control('POST', 'faults', {
      match: { api: 'admin', operationId: 'countScratchNotes' },
      action: { kind: 'status', status: 503 },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ match: { operationId: 'countScratchNotes' } });
  });

  it('accepts a journal filter on it', async () => {
    const listed = await control('GET', 'journal?api=admin&operationId=countScratchNotes');
    expect(listed).toEqual({ status: 200, body: { entries: [] } });
    const counted = await control('GET', 'journal/count?operationId=countScratchNotes');
    expect(counted).toEqual({ status: 200, body: { count: 0 } });
  });

  it('refuses a fault and a journal filter on an operation no spec has, naming the field', async () => {
    const fault = await control('POST', 'faults', {
      match: { operationId: 'countWidgets' },
      action: { kind: 'drop' },
    });
    expect(fault.status).toBe(422);
    expect(violationNames(fault.body)).toEqual(['match.operationId']);
    const journal = await control('GET', 'journal?operationId=countWidgets');
    expect(journal.status).toBe(422);
    expect(violationNames(journal.body)).toEqual(['operationId']);
    expect((await control('GET', 'faults')).body).toMatchObject({
      faults: [{ match: { operationId: 'countScratchNotes' } }],
    });
  });

  it('checks a fixture against the served spec', async () => {
    const refused = await control('POST', 'fixtures', { categories: [{ category_name: 'Cardigans' }] });
    expect(refused.status).toBe(422);
    expect(violationNames(refused.body)).toEqual(['categories/0.category_name']);
    const loaded = await control('POST', 'fixtures', { categories: [{ category_name: 'Mugs' }] });
    expect(loaded.status).toBe(200);
  });
});
