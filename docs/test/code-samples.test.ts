// The code samples of the references, and the TypeScript examples of the guides, are checked
// against the real thing: every operation carries a TypeScript and a curl sample generated from
// the spec; every TypeScript sample and guide example type-checks with `tsc` against the built
// client packages (resolved through node_modules/@mall-api/*, as a partner's project would); and
// the request every curl sample makes is answered with success by the local mock.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { demoOAuthApp, issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSamplesOf, mockUrlOf, operationsOf } from '../build/code-samples.mjs';

const docsRoot = join(import.meta.dirname, '..');
const repoRoot = join(docsRoot, '..');
const workspace = join(repoRoot, 'test-results', 'code-samples');

interface SampleRequest {
  method: string;
  url: string;
  auth: { kind: 'basic'; clientId: string; clientSecret: string } | { kind: 'bearer' } | { kind: 'none' };
  contentType?: string;
  body?: string;
  form?: Record<string, string>;
  expectStatus?: number;
}
interface Sample {
  operationId: string;
  typescript: string;
  curl: string;
  requests: SampleRequest[];
}

const apiNames = (
  JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as { name: string }[]
).map((api) => api.name);
const bundled = new Map<string, unknown>();
for (const name of apiNames) {
  bundled.set(
    name,
    JSON.parse(await readFile(join(repoRoot, 'specs', 'dist', `${name}.openapi.json`), 'utf8')),
  );
}
const samples = new Map<string, Sample[]>(
  apiNames.map((name) => [name, codeSamplesOf(name, bundled.get(name)) as Sample[]]),
);

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
  it('cover every operation of every API with a TypeScript and a curl sample', async () => {
    for (const name of apiNames) {
      const served = JSON.parse(
        await readFile(join(docsRoot, 'dist', 'specs', `${name}.openapi.json`), 'utf8'),
      );
      const operations = operationsOf(served) as { operation: Record<string, unknown> }[];
      expect(operations.length).toBe(samples.get(name)?.length);
      for (const [index, { operation }] of operations.entries()) {
        const sample = samples.get(name)?.[index] as Sample;
        expect(operation['x-codeSamples'], `${name} ${operation.operationId}`).toEqual([
          { lang: 'JavaScript', label: 'TypeScript', source: sample.typescript },
          { lang: 'Shell', label: 'curl', source: sample.curl },
        ]);
      }
    }
  });

  it('leave the hand-written specs and specs/dist without samples', async () => {
    for (const name of apiNames) {
      expect(JSON.stringify(bundled.get(name))).not.toContain('x-codeSamples');
    }
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

describe('the requests of the curl samples', () => {
  let served: Awaited<ReturnType<typeof startMockServers>>;
  beforeAll(async () => {
    served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 } });
  });
  afterAll(async () => {
    await served?.close();
  });

  it.each(apiNames)('are answered with success by the %s mock', async (name) => {
    const mock = served.mocks.find((entry) => entry.api === name);
    if (!mock) throw new Error(`no ${name} mock`);
    const sampleBase = mockUrlOf(bundled.get(name));
    const values: Record<string, string> = {};
    let mall = 0;
    const outcomes: string[] = [];
    for (const sample of samples.get(name) ?? []) {
      for (const request of sample.requests) {
        const headers = new Headers();
        if (request.auth.kind === 'basic') {
          headers.set(
            'Authorization',
            `Basic ${btoa(`${request.auth.clientId}:${request.auth.clientSecret}`)}`,
          );
        }
        if (request.auth.kind === 'bearer') {
          // A mall of its own per request, so the samples never meet the mall's rate limit.
          mall += 1;
          const tokens = issueDemoTokens(served.authority, demoOAuthApp.scopes, `samples${mall}`);
          headers.set('Authorization', `Bearer ${tokens.access_token}`);
        }
        if (request.contentType) headers.set('Content-Type', request.contentType);
        const form = request.form
          ? new URLSearchParams(
              Object.entries(request.form).map(([key, value]) => [
                key,
                value.replace(/^\$(\w+)$/, (_, n) => values[n] ?? ''),
              ]),
            ).toString()
          : undefined;
        const response = await fetch(request.url.replace(sampleBase, mock.url), {
          method: request.method,
          headers,
          body: request.body ?? form,
          redirect: 'manual',
        });
        const location = response.headers.get('location');
        const text = await response.text();
        if (location) values.AUTHORIZATION_CODE = new URL(location).searchParams.get('code') ?? '';
        if (text.includes('refresh_token')) values.REFRESH_TOKEN = JSON.parse(text).refresh_token;
        const ok = request.expectStatus ? response.status === request.expectStatus : response.ok;
        if (!ok)
          outcomes.push(
            `${sample.operationId}: ${request.method} ${request.url} → ${response.status} ${text.slice(0, 300)}`,
          );
      }
    }
    expect(outcomes).toEqual([]);
  });
});
