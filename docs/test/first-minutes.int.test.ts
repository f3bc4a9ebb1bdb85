// A new partner's first minutes land on data: against the default sandbox mocks (`npm start`'s
// seed 1, on free ports), the README's and the guides' curl examples of the collection API that
// expect a success, as written (only the port changed), the landing page's "Try it now" request,
// and the reference console's pre-filled category examples each answer 200 with products; the
// README's OAuth walk-through (authorize, exchange the code, call the admin and analytics mocks)
// runs as written, the code and token carried from one step to the next, and lists data; the
// console's required pre-fills of the store products list and of a bundle product find records.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');
const documented = 'http://127.0.0.1:4010';

/** The one-line curl commands of `markdown` that send the demo partner and expect a success. */
const successCurls = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('curl -u demo-partner:') && !line.includes('#') && !line.endsWith('\\'))
    .filter((line) => !/Prefer:|__code=/.test(line));

/** Runs a curl command line with bash, the collection mock's port swapped in; its status and body. */
async function curl(command: string, mockUrl: string) {
  const { stdout } = await run('bash', [
    '-c',
    `${command.replaceAll(documented, mockUrl)} -s -w '\\n%{http_code}'`,
  ]);
  const lines = stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  return { status, body: JSON.parse(lines.join('\n')) as Record<string, unknown[]> };
}

interface ConsoleOperation {
  operationId: string;
  path: string;
  parameters: { name: string; in: string; required: boolean; example?: string }[];
}

/** The URL the console pre-fills for an operation: its required path and query examples only. */
async function prefilledUrl(api: string, operationId: string, baseUrl: string) {
  const consoleData = JSON.parse(
    await readFile(join(repoRoot, 'docs', 'dist', api, 'console.json'), 'utf8'),
  ) as { operations: ConsoleOperation[] };
  const operation = consoleData.operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`${api} has no ${operationId} in its console`);
  const required = operation.parameters.filter((parameter) => parameter.required);
  let path = operation.path;
  const query = new URLSearchParams();
  for (const parameter of required) {
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, parameter.example ?? '');
    if (parameter.in === 'query') query.set(parameter.name, parameter.example ?? '');
  }
  return `${baseUrl}${path}?${query}`;
}

describe('the first minutes against the default sandbox', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ apis: ['collection'] });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const mockUrl = () => mock.urls.collection ?? '';

  it('the README and guides: every success example lists products', { timeout: 60_000 }, async () => {
    const files = ['README.md', 'docs/guides/mock-servers.md', 'docs/guides/getting-started.md'];
    const commands = (
      await Promise.all(files.map(async (file) => successCurls(await readFile(join(repoRoot, file), 'utf8'))))
    ).flat();
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const { status, body } = await curl(command, mockUrl());
      expect({ command, status }).toEqual({ command, status: 200 });
      expect(Object.values(body)[0]?.length, command).toBeGreaterThan(0);
    }
  });

  it('the landing page’s "Try it now" curl lists products', { timeout: 60_000 }, async () => {
    const landing = await readFile(join(repoRoot, 'docs', 'dist', 'index.html'), 'utf8');
    const block = /<h3>curl<\/h3>\s*<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/.exec(landing)?.[1] ?? '';
    const command = block
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\\\n\s*/g, '');
    expect(command).toContain('curl');
    const { status, body } = await curl(command, mockUrl());
    expect(status).toBe(200);
    expect(body.products?.length).toBeGreaterThan(0);
  });

  it('the console’s pre-filled category lists products', async () => {
    const consoleData = JSON.parse(
      await readFile(join(repoRoot, 'docs', 'dist', 'collection', 'console.json'), 'utf8'),
    ) as { operations: { operationId: string; parameters: { name: string; example: string }[] }[] };
    const example = consoleData.operations
      .find((operation) => operation.operationId === 'listProducts')
      ?.parameters.find((parameter) => parameter.name === 'collection_product_category')?.example;
    const answer = await fetch(`${mockUrl()}/api/products?collection_product_category=${example}`, {
      headers: { authorization: `Basic ${btoa('demo-partner:demo-partner-secret')}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { products: unknown[] }).products.length).toBeGreaterThan(0);
  });

  it('the console’s pre-filled store lists store products', async () => {
    const answer = await fetch(await prefilledUrl('collection', 'listStoreProducts', mockUrl()), {
      headers: { authorization: `Basic ${btoa('demo-partner:demo-partner-secret')}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { store_products: unknown[] }).store_products.length).toBeGreaterThan(0);
  });
});

/** The commands of the README's OAuth walk-through, in order: authorize, token, then the API calls. */
const oauthWalkthrough = (readme: string) =>
  (/```sh\n# 1\. authorize[\s\S]*?```/.exec(readme)?.[0] ?? '')
    .split('\n')
    .filter((line) => line.startsWith('curl '));

describe('the README’s OAuth walk-through against the default sandbox', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ apis: ['admin', 'analytics'] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('gets a code and a token and lists categories and visitor figures', { timeout: 60_000 }, async () => {
    const local = (command: string) =>
      command
        .replaceAll('http://127.0.0.1:4011', mock.urls.admin ?? '')
        .replaceAll('http://127.0.0.1:4012', mock.urls.analytics ?? '');
    const bash = async (command: string) => (await run('bash', ['-c', local(command)])).stdout;
    const [authorize, token, ...calls] = oauthWalkthrough(
      await readFile(join(repoRoot, 'README.md'), 'utf8'),
    );
    expect(calls.length).toBe(2);
    const code = /[?&]code=([^&\s]+)/.exec(await bash(authorize ?? ''))?.[1];
    expect(code).toBeTruthy();
    const tokens = JSON.parse(await bash((token ?? '').replace('<code>', code ?? ''))) as {
      access_token?: string;
    };
    expect(tokens.access_token).toBeTruthy();
    for (const call of calls) {
      const { status, body } = await curl(
        local(call.replace('<access_token>', tokens.access_token ?? '')),
        documented,
      );
      expect({ call, status }).toEqual({ call, status: 200 });
      const [records] = Object.values(body);
      expect(Array.isArray(records), call).toBe(true);
      expect(records?.length, call).toBeGreaterThan(0);
    }
  });

  it('the console’s pre-filled bundle product is one the sandbox has', async () => {
    const admin = mock.urls.admin ?? '';
    const redirect = 'http://127.0.0.1:8765/callback';
    const authorize = await fetch(
      `${admin}/api/v2/oauth/authorize?response_type=code&client_id=demo-app&state=s&redirect_uri=${redirect}&scope=mall.read_product`,
      { redirect: 'manual' },
    );
    const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = (await (
      await fetch(`${admin}/api/v2/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('demo-app:demo-app-secret')}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect }),
      })
    ).json()) as { access_token: string };
    const answer = await fetch(await prefilledUrl('admin', 'getBundleProduct', admin), {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(answer.status).toBe(200);
    expect(
      ((await answer.json()) as { bundleproduct: { product_no: number } }).bundleproduct.product_no,
    ).toBeGreaterThan(0);
  });
});
