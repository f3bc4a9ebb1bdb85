// The breaking-change check on copies of the collection bundle in a temp dir laid out like the
// repository (specs/releases/collection/1.0.0.json released, specs/dist/… current): a narrowed
// `limit` maximum and a removed parameter are reported in plain words with their location and fail
// the command; a new optional parameter passes in a new revision whose notes hold every change
// (generated); a changed description under the released number fails; a break declared in the
// notes of a new major revision passes. (That the repository itself passes `npm run
// check:breaking`, Optic over all three APIs, is checked beside the release dry run that repeats it:
// release-dry-run.int.test.ts.)
// The events of `webhooks` are checked too: a removed event and a body field of another type break.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { narrowedConstraints } from '../src/api-releases/narrowing-rules.mjs';
import { writePendingNotes } from '../src/api-releases/pending-notes.mjs';
import { diffBundles } from '../src/api-releases/spec-diff.mjs';

const repoRoot = join(import.meta.dirname, '..', '..');
const checker = join(repoRoot, 'tools', 'src', 'check-breaking.mjs');
const run = promisify(execFile);
const released = readFileSync(join(repoRoot, 'specs', 'dist', 'collection.openapi.json'), 'utf8');
const roots: string[] = [];

type Bundle = {
  info: { version: string };
  components: { parameters: Record<string, { schema: Record<string, unknown> }> };
  paths: Record<string, { get: { parameters: Record<string, unknown>[] } }>;
};

/** A repository layout with the released bundle and a changed copy as the current one. */
function layout(change: (bundle: Bundle) => void, notes?: { version: string; text: string }): string {
  const root = mkdtempSync(join(tmpdir(), 'check-breaking-'));
  roots.push(root);
  mkdirSync(join(root, 'specs', 'releases', 'collection'), { recursive: true });
  mkdirSync(join(root, 'specs', 'dist'), { recursive: true });
  // The repository's current bundle, numbered as the released revision 1.0.0.
  const release = {
    ...(JSON.parse(released) as Bundle),
    info: { ...JSON.parse(released).info, version: '1.0.0' },
  };
  writeFileSync(join(root, 'specs', 'releases', 'collection', '1.0.0.json'), JSON.stringify(release));
  const current = structuredClone(release);
  change(current);
  writeFileSync(join(root, 'specs', 'dist', 'collection.openapi.json'), JSON.stringify(current));
  if (notes) writeFileSync(join(root, 'specs', 'releases', 'collection', `${notes.version}.md`), notes.text);
  return root;
}

/** Runs the command on a layout: exit code and output. */
async function check(root: string) {
  try {
    const { stdout } = await run(process.execPath, [checker, '--root', root, '--api', 'collection']);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

const narrowLimit = (bundle: Bundle) => {
  const limit = bundle.components.parameters.Limit;
  if (limit?.schema.maximum !== 100)
    throw new Error('the collection Limit parameter changed; update this test');
  limit.schema.maximum = 50;
};

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('npm run check:breaking', () => {
  it('reports a narrowed limit maximum at every operation using it, and fails', async () => {
    const { code, output } = await check(layout(narrowLimit));
    expect(code).toBe(1);
    expect(output).toMatch(
      /collection: description 1\.0\.0 \(API versions: none published\) against released description 1\.0\.0: \d+ breaking changes/,
    );
    expect(output).toContain(
      "✗ GET /api/shops query parameter: limit: query parameter 'limit' accepts less: maximum lowered from 100 to 50",
    );
    expect(output).toMatch(/at current bundle \/paths\/\{\/api\/shops\}\/get\/parameters\/\d+/);
    expect(output).toContain('set info.version in specs/collection/openapi.yaml to 2.0.0');
  }, 60_000);

  it('reports a removed parameter, and fails', async () => {
    const root = layout((bundle) => {
      const operation = bundle.paths['/api/shops']?.get;
      if (!operation) throw new Error('no GET /api/shops');
      operation.parameters = operation.parameters.filter((p) => p.$ref !== '#/components/parameters/ShopSex');
    });
    const { code, output } = await check(root);
    expect(code).toBe(1);
    expect(output).toContain(
      "✗ GET /api/shops query parameter: shop_sex: query parameter 'shop_sex' was removed",
    );
    expect(output).toMatch(/at released bundle \/paths\/\{\/api\/shops\}\/get\/parameters\/\d+/);
  }, 60_000);

  const addTheme = (bundle: Bundle) => {
    bundle.paths['/api/shops']?.get.parameters.push({
      name: 'shop_theme',
      in: 'query',
      schema: { type: 'string' },
    });
  };

  it('lets a new optional parameter through in a new revision whose notes hold every change', async () => {
    const root = layout((bundle) => {
      addTheme(bundle);
      bundle.info.version = '1.1.0';
    });
    const missing = await check(root);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('specs/releases/collection/1.1.0.md do not list every change');
    await writePendingNotes('collection', root);
    const notes = readFileSync(join(root, 'specs', 'releases', 'collection', '1.1.0.md'), 'utf8');
    expect(notes).toContain('- query parameter `shop_theme` of `GET /api/shops`');
    expect(notes).toContain('- `info.version` 1.0.0 → 1.1.0');
    const { code, output } = await check(root);
    expect(output).toBe(
      'collection: description 1.1.0 (API versions: none published) against released description 1.0.0: no breaking change\n',
    );
    expect(code).toBe(0);
  }, 60_000);

  it('fails a changed description that keeps the released revision number', async () => {
    const { code, output } = await check(layout(addTheme));
    expect(code).toBe(1);
    expect(output).toContain('the description changed since 1.0.0 was released: raise info.version');
  }, 60_000);

  it('lets a break through when a new major revision declares it in its release notes', async () => {
    const declare = (bundle: Bundle) => {
      narrowLimit(bundle);
      bundle.info.version = '2.0.0';
    };
    const notes = {
      version: '2.0.0',
      text: '## Incompatible description changes\n\n- `limit` now stops at 50.\n',
    };
    const root = layout(declare, notes);
    await writePendingNotes('collection', root);
    const declared = await check(root);
    expect(declared.output).toMatch(/breaking changes \(declared in the 2\.0\.0 release notes\)/);
    expect(declared.code).toBe(0);
    const undeclared = layout(declare, { version: '2.0.0', text: 'Faster.\n' });
    await writePendingNotes('collection', undeclared);
    expect((await check(undeclared)).code).toBe(1);
  }, 60_000);
});

describe('narrowedConstraints', () => {
  it('names each keyword that accepts less, and nothing for a widening', () => {
    expect(
      narrowedConstraints(
        { minimum: 1, maximum: 100, maxLength: 20 },
        { minimum: 2, maximum: 100, maxLength: 10, pattern: '^[a-z]+$' },
      ),
    ).toEqual(['maxLength lowered from 20 to 10', 'minimum raised from 1 to 2', 'pattern ^[a-z]+$ added']);
    expect(narrowedConstraints({ maximum: 50, minLength: 2 }, { maximum: 100 })).toEqual([]);
  });
});

describe('diffBundles on events (webhooks)', () => {
  /** A document with one event whose body's `product_no` has the type `type`, and maybe a second event. */
  const withEvents = (type: string, second: boolean) => {
    const event = (eventNo: number, productNo: Record<string, unknown>) => ({
      post: {
        operationId: `receive${eventNo}`,
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['event_no', 'resource'],
                properties: {
                  event_no: { type: 'integer', const: eventNo },
                  resource: {
                    type: 'object',
                    required: ['product_no'],
                    properties: { product_no: productNo },
                  },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Received.' } },
      },
    });
    return {
      openapi: '3.1.0',
      info: { title: 'Events', version: '1.0.0' },
      paths: {},
      webhooks: {
        productCreated: event(90001, { type }),
        ...(second ? { productDeleted: event(90003, { type: 'integer' }) } : {}),
      },
    };
  };

  it('reports a removed event as breaking', async () => {
    const { breaking } = await diffBundles(withEvents('integer', true), withEvents('integer', false));
    expect(breaking.map((change) => change.location)).toEqual([
      'released bundle /paths/event productDeleted/post',
    ]);
  });

  it('reports a changed type of a body field as breaking, and an unchanged document as sound', async () => {
    const { breaking } = await diffBundles(withEvents('integer', false), withEvents('string', false));
    expect(breaking).toHaveLength(1);
    expect(breaking[0]?.where).toContain('event productCreated');
    expect(breaking[0]?.location).toContain('product_no');
    expect((await diffBundles(withEvents('integer', true), withEvents('integer', true))).breaking).toEqual(
      [],
    );
  });
});
