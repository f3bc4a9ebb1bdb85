import type { SandboxOutcome } from '@mall-api/sandbox/protocol';
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { itemResults, outcomeReply, refusalReply, refusalStatus, successStatus } from './sandbox-outcome.js';

const admin = await loadSpec('admin');
/** The documented response codes of an admin operation of the shipped spec. */
const codesOf = (operationId: string): readonly string[] => {
  const operation = admin.operation(operationId);
  if (!operation) throw new Error(`no admin operation ${operationId}`);
  return operation.responseCodes;
};

describe('a refusal', () => {
  it('has the status of its reason', () => {
    expect(['not-found', 'invalid', 'conflict', 'unavailable'].map((r) => refusalStatus(r as never))).toEqual(
      [404, 422, 409, 503],
    );
  });
  it('is the API error envelope naming each violated field, and no violations key when none was named', () => {
    const violation = {
      location: 'body',
      name: 'request.category_name',
      message: 'must not be empty',
    } as const;
    const invalid = refusalReply({
      ok: false,
      reason: 'invalid',
      message: 'request.category_name must not be empty',
      violations: [violation],
    });
    expect(invalid).toEqual({
      status: 422,
      headers: {},
      body: {
        error: {
          code: 'invalid_parameter',
          message: 'request.category_name must not be empty',
          more_info: { violations: [violation] },
        },
      },
    });
    const missing = refusalReply({
      ok: false,
      reason: 'not-found',
      message: 'Category 9 does not exist.',
      violations: [],
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: { code: 'not_found', message: 'Category 9 does not exist.', more_info: {} },
    });
  });
});

describe('the success status', () => {
  it('is read from the operation’s documented responses', () => {
    expect(successStatus(codesOf('createCategory'), false)).toBe(201);
    expect(successStatus(codesOf('deleteCategory'), false)).toBe(200);
    expect(successStatus(codesOf('listCategories'), false)).toBe(200);
    expect(successStatus(codesOf('createCategoryProduct'), false)).toBe(201);
    expect(successStatus(codesOf('createCategoryProduct'), true)).toBe(207);
  });
  it('follows a spec that documents another code', () => {
    expect(successStatus(['202', '401'], false)).toBe(202);
  });
  it('fails loudly when the operation documents no response for the outcome', () => {
    expect(() => successStatus(codesOf('createCategory'), true)).toThrow(/no Multi-Status \(207\) response/);
    expect(() => successStatus(['400', 'default'], false)).toThrow(/no success response/);
  });
});

describe('a sandbox outcome', () => {
  it('answers a read or a whole write with its documented status and body', () => {
    const created: SandboxOutcome = { ok: true, kind: 'created', body: { category: { category_no: 5 } } };
    expect(outcomeReply(created, codesOf('createCategory'))).toEqual({
      status: 201,
      headers: {},
      body: { category: { category_no: 5 } },
    });
    const deleted: SandboxOutcome = { ok: true, kind: 'deleted', body: { category: { category_no: 5 } } };
    expect(outcomeReply(deleted, codesOf('deleteCategory')).status).toBe(200);
  });
  it('answers a partly applied write with 207 and each item’s own status in request order', () => {
    const partial: SandboxOutcome = {
      ok: true,
      kind: 'partly-applied',
      body: { product: { shop_no: 1, display_group: 1, product_no: [10] } },
      items: [
        { index: 0, product_no: 10 },
        { index: 1, product_no: 999, refused: { reason: 'invalid', message: 'product 999 does not exist' } },
      ],
    };
    expect(outcomeReply(partial, codesOf('createCategoryProduct'))).toEqual({
      status: 207,
      headers: {},
      body: {
        product: { shop_no: 1, display_group: 1, product_no: [10] },
        results: [
          { index: 0, product_no: 10, status: 201 },
          { index: 1, product_no: 999, status: 422, message: 'product 999 does not exist' },
        ],
      },
    });
  });
  it('gives item statuses from the applied status and each refusal’s reason', () => {
    expect(
      itemResults(
        [
          { index: 0, product_no: 3, refused: { reason: 'not-found', message: 'gone' } },
          { index: 1, product_no: 4 },
        ],
        200,
      ),
    ).toEqual([
      { index: 0, product_no: 3, status: 404, message: 'gone' },
      { index: 1, product_no: 4, status: 200 },
    ]);
  });
  it('sends a kept answer’s JSON text as is, prepared once for the same outcome', () => {
    const kept: SandboxOutcome = { ok: true, kind: 'found', body: { count: 2 }, json: '{"count":2}' };
    const first = outcomeReply(kept, codesOf('countCategories'));
    expect(first.status).toBe(200);
    expect(first.prepared).toMatchObject({
      status: 200,
      contentType: 'application/json',
      payload: '{"count":2}',
    });
    expect(outcomeReply(kept, codesOf('countCategories')).prepared).toBe(first.prepared);
    const fresh: SandboxOutcome = { ok: true, kind: 'found', body: { count: 2 } };
    expect(outcomeReply(fresh, codesOf('countCategories')).prepared).toBeUndefined();
  });
  it('answers a refusal with its envelope whatever the operation documents', () => {
    const conflict: SandboxOutcome = {
      ok: false,
      reason: 'conflict',
      message: 'the mall changed',
      violations: [{ location: 'body', name: 'mall', message: 'the mall changed' }],
    };
    expect(outcomeReply(conflict, codesOf('createCategory')).status).toBe(409);
  });
});
