// The spec copy Redoc renders: vendor extensions Redoc never shows are left out (those it shows
// and data that only looks like one stay), and a 3.1 nullable `anyOf: [<schema>, {type: 'null'}]`
// becomes one schema typed `[<type>, 'null']`, which Redoc labels "string or null"; a server address
// that is one variable gets its default, as Redoc would read it as a path relative to the page.
import { describe, expect, it } from 'vitest';
import { redocSpecJson } from '../build/redoc-spec.mjs';

const spec = {
  openapi: '3.1.0',
  'x-tagGroups': [{ name: 'All', tags: ['Things'] }],
  servers: [
    {
      url: '{things_base_url}',
      variables: { things_base_url: { default: 'https://things.example.org' } },
    },
    { url: 'https://{mall_id}.example.org', variables: { mall_id: { default: 'yourmall' } } },
  ],
  'x-rate-limit': { capacity: 40 },
  paths: {
    '/things/{thing_no}': {
      get: {
        'x-codeSamples': [{ lang: 'curl', source: 'curl …' }],
        'x-mock-enforced': true,
        responses: { '200': { headers: { 'x-api-call-limit': { schema: { type: 'string' } } } } },
      },
    },
  },
  components: {
    schemas: {
      DisplayMethod: { title: 'DisplayMethod', type: 'string', enum: ['A', 'B'], 'x-provenance': 'seed' },
      Thing: {
        type: 'object',
        properties: {
          'x-flag': { type: 'string', example: { 'x-kept': 1 } },
          display: {
            anyOf: [{ $ref: '#/components/schemas/DisplayMethod' }, { type: 'null' }],
            description: 'How.',
          },
          either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
      },
    },
  },
};

describe('the spec copy for Redoc', () => {
  const copy = JSON.parse(redocSpecJson(spec));

  it('drops the extensions Redoc never shows and keeps those it shows, and data', () => {
    expect(copy['x-rate-limit']).toBeUndefined();
    expect(copy['x-tagGroups']).toEqual(spec['x-tagGroups']);
    const get = copy.paths['/things/{thing_no}'].get;
    expect(get['x-mock-enforced']).toBeUndefined();
    expect(get['x-codeSamples']).toEqual([{ lang: 'curl', source: 'curl …' }]);
    expect(Object.keys(get.responses['200'].headers)).toEqual(['x-api-call-limit']);
    expect(copy.components.schemas.DisplayMethod['x-provenance']).toBeUndefined();
    expect(copy.components.schemas.Thing.properties['x-flag']).toEqual({
      type: 'string',
      example: { 'x-kept': 1 },
    });
  });

  it('writes a nullable reference as one schema of its type or null, and leaves other unions', () => {
    expect(copy.components.schemas.Thing.properties.display).toEqual({
      type: ['string', 'null'],
      enum: ['A', 'B', null],
      description: 'How.',
    });
    expect(copy.components.schemas.Thing.properties.either).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
    });
  });

  it('gives a server whose address is only a variable its default address, and keeps the others', () => {
    expect(copy.servers).toEqual([
      { url: 'https://things.example.org' },
      { url: 'https://{mall_id}.example.org', variables: { mall_id: { default: 'yourmall' } } },
    ]);
  });

  it('is one line', () => {
    expect(redocSpecJson(spec)).not.toContain('\n');
  });
});
