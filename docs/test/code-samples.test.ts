// The code samples of the references, and the TypeScript examples of the guides, are checked
// against the real thing: every operation carries a TypeScript, a curl, a Python and a PHP sample
// generated from the spec; every TypeScript sample and guide example type-checks with `tsc`
// against the built client packages (resolved through node_modules/@mall-api/*, as a partner's
// project would). code-samples.int.test.ts runs every sample against the default sandbox mocks.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ApiName, loadSpecSync, type SpecModel } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { codeSamplesOf, codeSampleTabs } from '../build/code-samples.mjs';

const docsRoot = join(import.meta.dirname, '..');
const repoRoot = join(docsRoot, '..');
const workspace = join(repoRoot, 'test-results', 'code-samples');

type Sample = ReturnType<typeof codeSamplesOf>[number];

const apiNames = (
  JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as { name: ApiName }[]
).map((api) => api.name);
const models = new Map<string, SpecModel>(apiNames.map((name) => [name, loadSpecSync(name)]));
const model = (name: string) => models.get(name) as SpecModel;
const samples = new Map<string, Sample[]>(apiNames.map((name) => [name, codeSamplesOf(name, model(name))]));

/** The packages a snippet imports from our scope. */
const scopedImports = (source: string) =>
  [...source.matchAll(/from '(@mall-api\/[a-z-]+)(?:\/[a-z-]+)?'/g)].map((match) => match[1] as string);
/** Whether a package of ours is built (its types exist where a partner's project resolves them). */
const built = (name: string) => existsSync(join(repoRoot, 'node_modules', name, 'dist', 'index.d.ts'));

/** The ```ts blocks of every guide. */
async function guideExamples(): Promise<{ file: string; source: string }[]> {
  const folder = join(docsRoot, 'guides');
  const examples: { file: string; source: string }[] = [];
  for (const file of (await readdir(folder)).filter((name) => name.endsWith('.md')).sort()) {
    const text = await readFile(join(folder, file), 'utf8');
    [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].forEach((match, index) => {
      examples.push({ file: `${file.replace(/\.md$/, '')}-${index + 1}.ts`, source: match[1] ?? '' });
    });
  }
  return examples;
}

describe('the code samples of the references', () => {
  it('cover every operation of every API with a TypeScript, curl, Python and PHP sample', async () => {
    for (const name of apiNames) {
      const served = JSON.parse(
        await readFile(join(docsRoot, 'dist', 'specs', `${name}.openapi.json`), 'utf8'),
      ) as { paths: Record<string, Record<string, { 'x-codeSamples'?: unknown }>> };
      const list = samples.get(name) ?? [];
      expect(list.length).toBe(model(name).operations.length);
      for (const sample of list) {
        const tabs = served.paths[sample.path]?.[sample.method]?.['x-codeSamples'];
        expect(tabs, `${name} ${sample.operationId}`).toEqual(codeSampleTabs(sample));
        expect((tabs as { label: string }[]).map((tab) => tab.label)).toEqual([
          'TypeScript',
          'curl',
          'Python',
          'PHP',
        ]);
      }
    }
  });

  it('leave the hand-written specs and specs/dist without samples', async () => {
    for (const name of apiNames) {
      expect(JSON.stringify(model(name).document)).not.toContain('x-codeSamples');
    }
  });

  it('read the access token, code and refresh token from the environment in every language', () => {
    const products = samples.get('admin')?.find((sample) => sample.operationId === 'listProducts') as Sample;
    expect(products.curl).toContain(`--header 'Authorization: Bearer '"$MALL_ACCESS_TOKEN"`);
    expect(products.python).toContain('"Authorization": "Bearer " + os.environ["MALL_ACCESS_TOKEN"]');
    expect(products.php).toContain(`"Authorization: Bearer " . getenv('MALL_ACCESS_TOKEN')`);
    const token = samples.get('admin')?.find((sample) => sample.path.endsWith('/oauth/token')) as Sample;
    expect(token.php).toContain(
      `"grant_type=refresh_token&refresh_token=" . urlencode(getenv('REFRESH_TOKEN'))`,
    );
    expect(token.python).toContain('"code": os.environ["AUTHORIZATION_CODE"]');
  });

  it('use our client for the API, or @mall-api/auth for the OAuth endpoints', () => {
    const clients: Record<string, string> = {
      collection: '@mall-api/collection-client',
      admin: '@mall-api/admin-client',
      analytics: '@mall-api/analytics-client',
    };
    for (const [name, list] of samples) {
      for (const sample of list) {
        expect([clients[name], '@mall-api/auth'], sample.operationId).toContain(
          scopedImports(sample.typescript)[0],
        );
      }
    }
  });
});

describe('the TypeScript samples and guide examples', () => {
  it('type-check with tsc against the built client packages', { timeout: 90_000 }, async () => {
    await rm(workspace, { recursive: true, force: true });
    await mkdir(join(workspace, 'reference'), { recursive: true });
    await mkdir(join(workspace, 'guides'), { recursive: true });
    const files: string[] = [];
    const left: string[] = [];
    for (const [name, list] of samples) {
      for (const sample of list) {
        const file = `reference/${name}-${sample.operationId}.ts`;
        if (scopedImports(sample.typescript).every(built)) {
          await writeFile(join(workspace, file), sample.typescript);
          files.push(file);
        } else left.push(file);
      }
    }
    for (const example of await guideExamples()) {
      const file = `guides/${example.file}`;
      if (scopedImports(example.source).every(built)) {
        await writeFile(join(workspace, file), example.source);
        files.push(file);
      } else left.push(file);
    }
    await writeFile(
      join(workspace, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
        },
        include: files,
      }),
    );
    // The collection and analytics clients and @mall-api/auth are always built before the tests;
    // the admin client's samples join as soon as packages/admin-client is built.
    for (const name of ['@mall-api/collection-client', '@mall-api/analytics-client', '@mall-api/auth']) {
      expect(built(name), `${name} is built`).toBe(true);
    }
    if (built('@mall-api/admin-client')) expect(left).toEqual([]);
    else expect(left.every((file) => file.includes('admin'))).toBe(true);

    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', workspace, '--pretty', 'false'], {
      cwd: workspace,
    }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(result, `tsc found errors in ${workspace}`).toBe('');
    expect(files.length).toBeGreaterThan(60);
  });
});
