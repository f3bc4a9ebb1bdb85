// The getting-started guide's TypeScript examples, run as written by node (compiled to JavaScript
// by TypeScript's own transpiler, the packages resolved from this repository's node_modules as a
// partner's project would) against the default sandbox mocks (`npm start`'s stateful malls, seed 1)
// with only the ports changed and a fresh access token of the demo mall in `MALL_ACCESS_TOKEN`:
// each exits 0 (the methods throw on any error status) and prints what it read. The example that
// starts from a token manager's stored tokens is left out: its tokens come from `mall-api-auth login`.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const guide = await readFile(join(import.meta.dirname, '..', 'guides', 'getting-started.md'), 'utf8');
const examples = [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
  .map((match, index) => ({ index: index + 1, source: match[1] ?? '' }))
  .filter(({ source }) => !source.includes('createTokenManager'));
const documented = {
  collection: 'http://127.0.0.1:4010',
  admin: 'http://127.0.0.1:4011',
  analytics: 'http://127.0.0.1:4012',
};

/** Runs the JavaScript `script` with node from the docs folder; its exit code and output. */
function node(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-'], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(script);
  });
}

let served: Awaited<ReturnType<typeof startMockServers>>;
beforeAll(async () => {
  served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 }, sandbox: { seed: 1 } });
});
afterAll(async () => {
  await served?.close();
});

describe('the getting-started guide’s examples against the default sandbox', () => {
  it('has examples in the method form, one per API at least', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const call of ['client.products.list(', 'admin.categories.list(', 'analytics.visitors.view.list('])
      expect(guide).toContain(call);
  });

  it.each(examples)(
    'example $index runs as written and prints what it read',
    { timeout: 120_000 },
    async ({ source }) => {
      let script = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      for (const mock of served.mocks) script = script.replaceAll(documented[mock.api], mock.url);
      const { access_token } = issueDemoTokens(served.authority, served.oauth.scopes, 'demomall');
      const { code, out, err } = await node(script, { MALL_ACCESS_TOKEN: access_token });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out.trim()).not.toBe('');
      expect(out).not.toMatch(/^\[\]$|^0 days$/m);
    },
  );
});
