// The invalid bodies derived from the plain schema keywords of the record an example sends: one per
// keyword, each refused by the schema, naming the attribute broken.
import { createSpecModel } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { schemaBodyCases } from './schema-body-cases.js';

const model = createSpecModel({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/items': {
      post: {
        operationId: 'createItem',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  request: {
                    type: 'object',
                    required: ['name'],
                    properties: {
                      name: { type: 'string', maxLength: 5 },
                      other: { type: 'string', maxLength: 5 },
                      display: { type: 'string', enum: ['T', 'F'] },
                      stock: { type: 'integer', minimum: 0, maximum: 9 },
                    },
                  },
                },
              },
              example: { request: { name: 'Cup', other: 'Mug', display: 'T', stock: 1 } },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
  },
});

describe('schemaBodyCases', () => {
  const cases = schemaBodyCases(model, model.operation('createItem') as never);

  it('makes one case per keyword, on the first attribute that has it', () => {
    expect(cases.map((c) => c.name)).toEqual([
      'request.name breaking maxLength',
      'request.name breaking type',
      'request.display breaking enum',
      'request.stock breaking minimum',
      'request.stock breaking maximum',
      'request.name missing (required)',
    ]);
  });

  it('breaks only that attribute, and the schema refuses every body', () => {
    const validate = model.schemas().compile(model.operation('createItem')?.bodySchema ?? {});
    expect(cases.every((c) => !validate(c.body))).toBe(true);
    expect(cases[0]?.body).toEqual({ request: { name: 'aaaaaa', other: 'Mug', display: 'T', stock: 1 } });
    expect(cases.at(-1)?.body).toEqual({ request: { other: 'Mug', display: 'T', stock: 1 } });
    expect(cases.map((c) => c.field)).toContain('request.stock');
  });
});
