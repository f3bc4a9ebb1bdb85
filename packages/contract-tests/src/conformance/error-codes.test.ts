// Each error status carries the code the spec pairs with it: read from the admin bundle's error
// envelope (`x-enumDescriptions` of `code`) and the responses' examples, judged on fake answers.
import { loadSpec, type OperationEntry } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { errorCodeProblems, notFoundChecks, pairedErrorCodes } from './error-codes.js';

const model = await loadSpec('admin');
const getProduct = model.operation('getProduct') as OperationEntry;
const answer = (status: number, code: string) => ({
  status,
  headers: new Headers(),
  body: { error: { code, message: 'm', more_info: {} } },
});

describe('the error code paired with a status', () => {
  it('is read from the envelope code descriptions and the response examples', () => {
    expect(pairedErrorCodes(model, getProduct, 404)).toEqual(['not_found']);
    expect(pairedErrorCodes(model, getProduct, 422)).toContain('invalid_parameter');
    expect(pairedErrorCodes(model, getProduct, 418)).toEqual([]);
  });

  it('fails an error answer with another code, and only that', () => {
    expect(errorCodeProblems(model, getProduct, answer(404, 'not_found'))).toEqual([]);
    expect(errorCodeProblems(model, getProduct, answer(404, 'invalid_parameter'))).toEqual([
      '404 carries the error code invalid_parameter, not not_found',
    ]);
    expect(errorCodeProblems(model, getProduct, answer(418, 'teapot'))).toEqual([]);
    expect(errorCodeProblems(model, getProduct, { status: 200, headers: new Headers(), body: {} })).toEqual(
      [],
    );
  });

  it('asks for a 404 of every read addressing a record, with an id past its maximum', async () => {
    const sent: string[] = [];
    const checks = notFoundChecks({
      model,
      client: {
        send: async ({ operation, parts }) => {
          sent.push(`${operation.operationId} ${JSON.stringify(parts.path)}`);
          return answer(operation.operationId === 'getProduct' ? 404 : 200, 'not_found');
        },
        sent: 0,
        has: () => true,
        forbiddenScopes: undefined,
        sleep: async () => {},
      },
      answers: { problems: () => [] },
      seed: 1,
    });
    const names = checks.map((check) => `${check.subject}: ${check.name}`);
    expect(names).toContain('getProduct: an unknown product_no → 404 with its paired code');
    const product = checks.find((check) => check.subject === 'getProduct');
    const category = checks.find((check) => check.subject === 'getCategory');
    expect(await product?.run()).toEqual({ problems: [] });
    expect(await category?.run()).toEqual({ problems: ['answered 200'] });
    expect(sent[0]).toMatch(/"product_no":\d{6,}/);
  });
});
