// The lint refuses a rule extension that does not say where its fact comes from, and a query
// parameter that does not declare its meaning: the `mall` Redocly plugin's `rule-provenance` and
// `query-meaning` rules (specs/lint/mall-plugin.js) run in `npm run lint`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const specs = join(import.meta.dirname, '..');
const redocly = join(specs, '..', 'node_modules', '.bin', 'redocly');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'provenance-lint-'));
  await writeFile(
    join(directory, 'redocly.yaml'),
    `plugins:\n  - ${join(specs, 'lint', 'mall-plugin.js')}\nrules:\n  mall/rule-provenance: error\n`,
  );
  await writeFile(
    join(directory, 'meaning.yaml'),
    `plugins:\n  - ${join(specs, 'lint', 'mall-plugin.js')}\nrules:\n  mall/query-meaning: error\n`,
  );
  await writeFile(
    join(directory, 'reference.yaml'),
    `plugins:\n  - ${join(specs, 'lint', 'mall-plugin.js')}\nrules:\n  mall/record-reference: error\n  mall/rule-provenance: error\n`,
  );
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** `rule`'s lines indented by `spaces`. */
const indented = (rule: string, spaces: number) =>
  rule
    .split('\n')
    .map((line) => `${' '.repeat(spaces)}${line}`)
    .join('\n');

/** A document with one operation on `/items` (`operation`: the method and what follows it). */
const oneOperation = (operation: string) => `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /items:
${operation}
      responses:
        '200': { description: ok }
`;

/** Lints a one-operation document whose `price_max` parameter carries `rule`. */
const lint = (rule: string) =>
  lintDocument(
    oneOperation(`    get:
      parameters:
        - { name: price_min, in: query, schema: { type: number } }
        - name: price_max
          in: query
          schema: { type: number }
${indented(rule, 10)}`),
  );

/** A one-operation document whose PUT body's `request` object is `request` (its lines indented 18). */
const withRequest = (request: string) =>
  oneOperation(`    put:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                request:
${request}`);

/** Lints a one-operation document whose request body's `request` object carries `rule`. */
const lintRequest = (rule: string) =>
  lintDocument(
    withRequest(`                  type: object
                  properties: { a: { type: string }, b: { type: string } }
${indented(rule, 18)}`),
  );

/** Lints one document text with only one rule of the `mall` plugin (`config`: its configuration). */
async function lintDocument(text: string, config = 'redocly.yaml'): Promise<{ ok: boolean; output: string }> {
  const file = join(directory, 'openapi.yaml');
  await writeFile(file, text);
  try {
    const { stdout, stderr } = await run(redocly, ['lint', file, '--config', join(directory, config)]);
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('mall/rule-provenance', () => {
  it('fails a rule extension without x-provenance', async () => {
    const result = await lint('x-not-less-than: { field: price_min }');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('x-not-less-than states a rule without x-provenance');
  });

  it('fails an x-provenance outside seed, reference and inferred', async () => {
    const result = await lint('x-not-less-than: { field: price_min, x-provenance: guessed }');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('x-provenance must be one of seed, reference, inferred');
  });

  it('passes a rule extension with its provenance, inside it or beside a list-valued one', async () => {
    expect((await lint('x-not-less-than: { field: price_min, x-provenance: inferred }')).ok).toBe(true);
    expect((await lint('x-provenance: seed\nx-mutually-exclusive: [[price_min, price_max]]')).ok).toBe(true);
  });

  it.each([
    ['minProperties', 'minProperties: 1'],
    ['dependentRequired', 'dependentRequired: { a: [b] }'],
    ['if', 'if: { required: [a] }\nthen: { required: [b] }'],
    ['not', 'not: { required: [a, b] }'],
  ])(
    'fails a request schema stating a rule by %s without x-provenance, passes it with one',
    async (keyword, rule) => {
      const bare = await lintRequest(rule);
      expect(bare.ok).toBe(false);
      expect(bare.output).toContain(`${keyword} states a request rule without x-provenance`);
      expect((await lintRequest(`x-provenance: inferred\n${rule}`)).ok).toBe(true);
    },
  );

  it('finds a request rule inside an allOf item and leaves response schemas alone', async () => {
    const nested = await lintRequest('allOf:\n  - if: { required: [a] }\n    then: { required: [b] }');
    expect(nested.ok).toBe(false);
    expect(nested.output).toContain('if states a request rule');
    const response = await lintDocument(`openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /items:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, minProperties: 1 }
`);
    expect(response.ok).toBe(true);
  });
});

/** Lints a one-operation document with one query parameter `q` carrying `meaning`. */
const lintMeaning = (meaning: string) =>
  lintDocument(
    oneOperation(`    get:
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
        - name: q
          in: query
          schema: { type: string }
${indented(meaning, 10)}`).replace('/items:', '/items/{id}:'),
    'meaning.yaml',
  );

describe('mall/query-meaning', () => {
  it('fails a query parameter that declares no meaning, and leaves path parameters alone', async () => {
    const result = await lintMeaning('description: a query');
    expect(result.ok).toBe(false);
    expect(result.output).toContain('q: a query parameter declares its meaning in x-query');
    expect(result.output).not.toContain('id: ');
  });

  it.each([
    ['an unknown role', 'x-query: { role: search }', 'x-query.role must be one of'],
    ['a filter without a field', 'x-query: { role: filter, match: equals }', 'names the record field'],
    [
      'an unknown comparison',
      'x-query: { role: filter, field: q, match: like }',
      'x-query.match must be one of',
    ],
    [
      'a key-value filter without its entry names',
      'x-query: { role: filter, field: t, match: key-value }',
      'needs key',
    ],
    ['a modifier without its filter', 'x-query: { role: modifier, effect: include-descendants }', 'needs of'],
    [
      'an attribute filter without attributes',
      'x-query: { role: filter, match: attribute-value }',
      'lists its attributes',
    ],
  ])('fails %s', async (_case, meaning, message) => {
    const result = await lintMeaning(meaning);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(message);
  });

  it('passes a declared filter, paging role or attribute filter', async () => {
    expect((await lintMeaning('x-query: { role: filter, field: name, match: contains-ci }')).ok).toBe(true);
    expect((await lintMeaning('x-query: { role: page-size }')).ok).toBe(true);
    expect((await lintMeaning('x-query: { role: filter, match: attribute-value, attributes: [a] }')).ok).toBe(
      true,
    );
  });
});

/** Lints a document whose request body's `request.a` property carries `rule`. */
const lintReference = (rule: string) =>
  lintDocument(
    withRequest(`                  type: object
                  properties:
                    a:
                      type: integer
${indented(rule, 22)}`),
    'reference.yaml',
  );

describe('mall/record-reference', () => {
  it.each([
    [
      'an unknown resource',
      'x-refers-to: { resource: order, x-provenance: seed }',
      'x-refers-to.resource must be one of',
    ],
    [
      'an unknown exclusion',
      'x-refers-to: { resource: product, except: [twin], x-provenance: inferred }',
      'x-refers-to.except lists some of',
    ],
    [
      'a reference without provenance',
      'x-refers-to: { resource: product }',
      'x-refers-to states a rule without x-provenance',
    ],
    ['a per-shop flag that is no object', 'x-per-shop: true', 'x-per-shop is an object'],
  ])('fails %s', async (_case, rule, message) => {
    const result = await lintReference(rule);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(message);
  });

  it('passes a declared reference and a per-shop attribute', async () => {
    expect(
      (await lintReference('x-refers-to: { resource: product, except: [self], x-provenance: inferred }')).ok,
    ).toBe(true);
    expect((await lintReference('x-per-shop: { x-provenance: seed }')).ok).toBe(true);
  });
});
