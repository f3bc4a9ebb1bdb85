// Every named example in the bundled collection spec validates against the schema it illustrates,
// checked by Ajv independently of Redocly's lint.
import { describe, expect, it } from 'vitest';
import { loadBundle, schemaValidator } from './schema-validator.js';

const document = loadBundle('collection');
const validate = schemaValidator(document);

type Media = { schema?: { $ref?: string }; examples?: Record<string, { $ref?: string; value?: unknown }> };
type Response = { $ref?: string; content?: Record<string, Media> };

const resolve = <T>(node: T & { $ref?: string }): T => {
  if (!node.$ref) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], document) as T;
};

const cases: [string, string, unknown][] = [];
for (const [path, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(
    item as Record<string, { responses: Record<string, Response> }>,
  )) {
    for (const [status, responseRef] of Object.entries(operation.responses)) {
      const media = resolve(responseRef).content?.['application/json'];
      for (const [name, exampleRef] of Object.entries(media?.examples ?? {})) {
        const schemaPointer = media?.schema?.$ref?.slice(1) ?? '';
        cases.push([
          `${method.toUpperCase()} ${path} ${status} ${name}`,
          schemaPointer,
          resolve(exampleRef).value,
        ]);
      }
    }
  }
}

describe('named examples of the collection spec', () => {
  it('cover every operation and every documented status', () => {
    expect(cases.length).toBeGreaterThanOrEqual(5 * 8);
  });

  it.each(cases)('%s matches its schema', (_label, pointer, value) => {
    expect(pointer).toMatch(/^\/components\/schemas\//);
    expect(validate(pointer, value)).toEqual([]);
  });
});
