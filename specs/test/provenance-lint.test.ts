// The lint refuses a rule extension that does not say where its fact comes from, and a query
// parameter that does not declare its meaning: the `mall` Redocly plugin's `rule-provenance` and
// `query-meaning` rules (specs/lint/mall-plugin.js) run in `npm run lint`.
// Each test's documents are written when the file is collected and linted together before the
// tests run: one `redocly lint` over every document of a configuration (its JSON report names each
// problem's file), instead of a command per document.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const specs = join(import.meta.dirname, '..');
const redocly = join(specs, '..', 'node_modules', '.bin', 'redocly');
let directory: string;

/** What the lint said of one document: whether it passed, and its problems' messages. */
interface Linted {
  ok: boolean;
  output: string;
}
/** The documents to lint, in order, with the configuration each is linted under. */
const documents: { text: string; config: string }[] = [];
const results: Linted[] = [];

/** Lints every document of `config` (the files `files`, by index) in one run, into `results`. */
async function lintAll(config: string, files: ReadonlyMap<number, string>): Promise<void> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      redocly,
      ['lint', ...files.values(), '--config', join(directory, config), '--format', 'json'],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ));
  } catch (error) {
    stdout = (error as { stdout?: string }).stdout ?? '';
  }
  // One JSON report per document, one after the other: each closes with a `}` at a line's start.
  const reports = JSON.parse(`[${stdout.trim().replace(/^\}\{/gm, '},{')}]`) as {
    problems: { severity: string; message: string; location: { source: { ref: string } }[] }[];
  }[];
  expect(reports).toHaveLength(files.size);
  const problems = reports.flatMap((report) => report.problems);
  for (const [index, file] of files) {
    const own = problems.filter(({ location }) => resolve(location[0]?.source.ref ?? '') === file);
    results[index] = {
      ok: !own.some((problem) => problem.severity === 'error'),
      output: own.map((problem) => problem.message).join('\n'),
    };
  }
}

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
  const byConfig = new Map<string, Map<number, string>>();
  for (const [index, { text, config }] of documents.entries()) {
    const file = join(directory, `openapi-${index}.yaml`);
    await writeFile(file, text);
    byConfig.set(config, (byConfig.get(config) ?? new Map()).set(index, file));
  }
  await Promise.all([...byConfig].map(([config, files]) => lintAll(config, files)));
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

/**
 * Lints one document text with only one rule of the `mall` plugin (`config`: its configuration).
 * Call it while the file is collected; the returned function gives the result inside a test.
 */
function lintDocument(text: string, config = 'redocly.yaml'): () => Linted {
  const index = documents.push({ text, config }) - 1;
  return () => {
    const result = results[index];
    if (!result) throw new Error(`document ${index} was not linted`);
    return result;
  };
}

describe('mall/rule-provenance', () => {
  const missing = lint('x-not-less-than: { field: price_min }');
  it('fails a rule extension without x-provenance', () => {
    expect(missing().ok).toBe(false);
    expect(missing().output).toContain('x-not-less-than states a rule without x-provenance');
  });

  const guessed = lint('x-not-less-than: { field: price_min, x-provenance: guessed }');
  it('fails an x-provenance outside seed, reference and inferred', () => {
    expect(guessed().ok).toBe(false);
    expect(guessed().output).toContain('x-provenance must be one of seed, reference, inferred');
  });

  const inside = lint('x-not-less-than: { field: price_min, x-provenance: inferred }');
  const beside = lint('x-provenance: seed\nx-mutually-exclusive: [[price_min, price_max]]');
  it('passes a rule extension with its provenance, inside it or beside a list-valued one', () => {
    expect(inside().ok).toBe(true);
    expect(beside().ok).toBe(true);
  });

  it.each(
    [
      ['minProperties', 'minProperties: 1'],
      ['dependentRequired', 'dependentRequired: { a: [b] }'],
      ['if', 'if: { required: [a] }\nthen: { required: [b] }'],
      ['not', 'not: { required: [a, b] }'],
    ].map(
      ([keyword, rule]) =>
        [keyword, lintRequest(rule), lintRequest(`x-provenance: inferred\n${rule}`)] as const,
    ),
  )(
    'fails a request schema stating a rule by %s without x-provenance, passes it with one',
    (keyword, bare, stated) => {
      expect(bare().ok).toBe(false);
      expect(bare().output).toContain(`${keyword} states a request rule without x-provenance`);
      expect(stated().ok).toBe(true);
    },
  );

  const nested = lintRequest('allOf:\n  - if: { required: [a] }\n    then: { required: [b] }');
  const response = lintDocument(`openapi: 3.1.0
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
  it('finds a request rule inside an allOf item and leaves response schemas alone', () => {
    expect(nested().ok).toBe(false);
    expect(nested().output).toContain('if states a request rule');
    expect(response().ok).toBe(true);
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
  const undeclared = lintMeaning('description: a query');
  it('fails a query parameter that declares no meaning, and leaves path parameters alone', () => {
    expect(undeclared().ok).toBe(false);
    expect(undeclared().output).toContain('q: a query parameter declares its meaning in x-query');
    expect(undeclared().output).not.toContain('id: ');
  });

  it.each(
    [
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
      [
        'a modifier without its filter',
        'x-query: { role: modifier, effect: include-descendants }',
        'needs of',
      ],
      [
        'an attribute filter without attributes',
        'x-query: { role: filter, match: attribute-value }',
        'lists its attributes',
      ],
    ].map(([name, meaning, message]) => [name, lintMeaning(meaning), message] as const),
  )('fails %s', (_case, result, message) => {
    expect(result().ok).toBe(false);
    expect(result().output).toContain(message);
  });

  const declared = [
    'x-query: { role: filter, field: name, match: contains-ci }',
    'x-query: { role: page-size }',
    'x-query: { role: filter, match: attribute-value, attributes: [a] }',
  ].map(lintMeaning);
  it('passes a declared filter, paging role or attribute filter', () => {
    for (const result of declared) expect(result().ok).toBe(true);
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
  it.each(
    [
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
    ].map(([name, rule, message]) => [name, lintReference(rule), message] as const),
  )('fails %s', (_case, result, message) => {
    expect(result().ok).toBe(false);
    expect(result().output).toContain(message);
  });

  const reference = lintReference(
    'x-refers-to: { resource: product, except: [self], x-provenance: inferred }',
  );
  const perShop = lintReference('x-per-shop: { x-provenance: seed }');
  it('passes a declared reference and a per-shop attribute', () => {
    expect(reference().ok).toBe(true);
    expect(perShop().ok).toBe(true);
  });
});
