// The links of an operation's responses, and the values their runtime expressions name in an answer.
import { describe, expect, it } from 'vitest';
import { linkValue } from './operation-links.js';
import { createSpecModel } from './spec-model.js';

const model = createSpecModel({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        responses: {
          '201': {
            description: 'created',
            links: {
              GetThing: { $ref: '#/components/links/GetThing' },
              ByRef: { operationRef: '#/paths/~1things~1{id}/get' },
            },
          },
        },
      },
    },
  },
  components: {
    links: {
      GetThing: {
        operationId: 'getThing',
        parameters: { id: '$response.body#/thing/id' },
        'x-provenance': 'inferred',
      },
    },
  },
});

describe('operation links', () => {
  it('lists each response link by its operationId, resolving references and skipping operationRef links', () => {
    expect(model.operation('createThing')?.links).toEqual([
      {
        status: '201',
        name: 'GetThing',
        operationId: 'getThing',
        parameters: { id: '$response.body#/thing/id' },
        extensions: { 'x-provenance': 'inferred' },
      },
    ]);
  });

  it('evaluates $response.body pointers on an answer, passes constants through, and gives nothing for other expressions', () => {
    const body = { thing: { id: 7, 'a/b': 1 } };
    expect(linkValue('$response.body#/thing/id', body)).toBe(7);
    expect(linkValue('$response.body#/thing/a~1b', body)).toBe(1);
    expect(linkValue('$response.body#/thing/missing', body)).toBeUndefined();
    expect(linkValue('$response.body', body)).toEqual(body);
    expect(linkValue('$request.path.id', body)).toBeUndefined();
    expect(linkValue(3, body)).toBe(3);
  });
});
