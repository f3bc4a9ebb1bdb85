// The release notes' document section lists what the endpoint diff cannot see, so no change is
// left out of the generated notes: `info` and the root members, and every component no operation
// reaches through a `$ref` (a security scheme and its rule extensions, a schema only the generated
// types show) — while a component an operation reaches is left to the endpoint diff.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeSections, documentChanges } from '../src/api-releases/release-notes.mjs';
import { diffBundles } from '../src/api-releases/spec-diff.mjs';

// biome-ignore lint/suspicious/noExplicitAny: bundles are read loosely here
type Bundle = Record<string, any>;

/** A small document: one operation reaching `Item` (and through it `Tag`), one scheme, one unused schema. */
const document = (): Bundle => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1.0.0' },
  'x-rate-limit': { limit: 40 },
  paths: {
    '/items': {
      get: {
        security: [{ basic: [] }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Item: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Tag' } } },
      Tag: { type: 'string' },
      Unused: { type: 'string' },
    },
    securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
  },
});

describe('documentChanges', () => {
  it('lists nothing for the same document', () => {
    expect(documentChanges(document(), document())).toEqual([]);
  });

  it('names info fields and root members', () => {
    const after = document();
    after.info.version = '1.1.0';
    after['x-rate-limit'].limit = 30;
    after['x-api-versions'] = { versions: [] };
    expect(documentChanges(document(), after)).toEqual([
      '`info.version` 1.0.0 → 1.1.0',
      '`x-api-versions` added',
      '`x-rate-limit` changed',
    ]);
  });

  it('names a changed security scheme and an unreached component, not one an operation reaches', () => {
    const after = document();
    after.components.securitySchemes.basic['x-token-lifetimes'] = { 'access-token-seconds': 3600 };
    after.components.schemas.Unused = { type: 'integer' };
    after.components.schemas.Added = { type: 'boolean' };
    after.components.schemas.Tag = { type: 'integer' };
    expect(documentChanges(document(), after)).toEqual([
      '`components.schemas.Added` added',
      '`components.schemas.Unused` changed',
      '`components.securitySchemes.basic` changed',
    ]);
  });
});

describe('changeSections on a real bundle', () => {
  it('lists a changed credential mapping of the collection Basic scheme', async () => {
    const collection = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'specs', 'dist', 'collection.openapi.json'), 'utf8'),
    ) as Bundle;
    const changed = structuredClone(collection);
    changed.components.securitySchemes.basicAuth.description = 'The user name is the mall ID.';
    expect(changeSections(await diffBundles(collection, changed))).toEqual([
      '### Document',
      '',
      '- `components.securitySchemes.basicAuth` changed',
      '',
    ]);
  }, 120_000);
});
