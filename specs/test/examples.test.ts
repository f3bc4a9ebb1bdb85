// Every named example in every bundled spec validates against the schema it illustrates, checked
// by Ajv independently of Redocly's lint; every operation documents its responses with one, and
// every event (`webhooks`) its body.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadBundle, type OpenApiDocument, schemaValidator } from './schema-validator.js';

const apis = Object.keys(
  (
    YAML.parse(readFileSync(join(import.meta.dirname, '..', '..', 'redocly.yaml'), 'utf8')) as {
      apis: object;
    }
  ).apis,
);

type Media = { schema?: { $ref?: string }; examples?: Record<string, { $ref?: string; value?: unknown }> };
type Response = { $ref?: string; content?: Record<string, Media> };
type Event = { requestBody?: { content?: Record<string, Media> } };

const resolveIn =
  (document: OpenApiDocument) =>
  <T>(node: T & { $ref?: string }): T => {
    if (!node.$ref) return node;
    return node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], document) as T;
  };

function namedExamples(document: OpenApiDocument): [string, string, unknown][] {
  const resolve = resolveIn(document);
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
  return cases;
}

/** The named examples of the events' bodies, one case each. */
function eventExamples(document: OpenApiDocument): [string, string, unknown][] {
  const resolve = resolveIn(document);
  return Object.entries(document.webhooks ?? {}).flatMap(([name, item]) =>
    Object.entries(item as Record<string, Event>).flatMap(([method, operation]) => {
      const media = operation.requestBody?.content?.['application/json'];
      return Object.entries(media?.examples ?? {}).map(([example, exampleRef]): [string, string, unknown] => [
        `event ${name} ${method.toUpperCase()} ${example}`,
        media?.schema?.$ref?.slice(1) ?? '',
        resolve(exampleRef).value,
      ]);
    }),
  );
}

describe.each(apis)('named examples of the %s spec', (api) => {
  const document = loadBundle(api);
  const validate = schemaValidator(document);
  const events = eventExamples(document);
  const cases = [...namedExamples(document), ...events];
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));

  it('exist for every operation', () => {
    expect(cases.length - events.length).toBeGreaterThanOrEqual(operations.length);
  });

  it('exist for every event', () => {
    const named = new Set(events.map(([label]) => label.split(' ')[1]));
    expect([...named].sort()).toEqual(Object.keys(document.webhooks ?? {}).sort());
  });

  it.each(cases)('%s matches its schema', (_label, pointer, value) => {
    expect(pointer).toMatch(/^\/components\/schemas\//);
    expect(validate(pointer, value)).toEqual([]);
  });
});
