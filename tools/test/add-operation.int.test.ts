// CONTRIBUTING's recipe for adding an operation, followed on a scratch copy of the admin spec
// sources: one path file and one `$ref` in the root document, bundled with the Redocly CLI the build
// uses, and nothing else written. The mock serves the new operation from that bundle (passed as
// `specs`) with its documented example, refuses a bad parameter with 422 naming it, asks for the
// operation's scope, counts it against the rate limit; the generated types list it, the docs site's
// reference search and Postman collection list it, and Dredd (the contract runner's engine) makes a
// transaction of each of its documented responses. The stateful
// half of the recipe (a sandbox handler) is not followed here: the sandbox's handler maps are typed
// by the generated operations and cannot be extended from outside the package.
import { execFile, spawn } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { createSpecModel, type JsonObject, nodeAt } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { postmanCollection, requestItems } from '../../docs/build/postman-collections.mjs';
import { referenceDocuments } from '../../docs/build/search-index.mjs';
import { repoRoot } from '../src/published-packages.mjs';

const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const path = '/api/v2/admin/scratchnotes/count';
const operationId = 'countScratchNotes';

let scratch: string;
let bundled: JsonObject;
let served: Awaited<ReturnType<typeof startMockServers>>;

/** Step 1 of the recipe: the operation's own file, modelled on a documented one. */
function writeOperation(specs: string) {
  const model = YAML.parse(
    readFileSync(join(specs, 'admin', 'paths', 'categories', 'countCategories.yaml'), 'utf8'),
  );
  const operation = { ...model, operationId, summary: 'Count scratch notes' };
  writeFileSync(
    join(specs, 'admin', 'paths', 'categories', `${operationId}.yaml`),
    YAML.stringify(operation),
  );
}

/** Step 2: its `$ref` in the thin root document. */
function addReference(specs: string) {
  const rootFile = join(specs, 'admin', 'openapi.yaml');
  const root = YAML.parseDocument(readFileSync(rootFile, 'utf8'));
  root.setIn(['paths', path], { get: { $ref: `./paths/categories/${operationId}.yaml` } });
  writeFileSync(rootFile, root.toString());
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'add-operation-'));
  const specs = join(scratch, 'specs');
  for (const folder of ['admin', 'shared'])
    cpSync(join(repoRoot, 'specs', folder), join(specs, folder), { recursive: true });
  writeOperation(specs);
  addReference(specs);
  const bundle = join(scratch, 'admin.openapi.json');
  await run(bin('redocly'), ['bundle', join(specs, 'admin', 'openapi.yaml'), '--ext', 'json', '-o', bundle], {
    cwd: scratch,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  bundled = JSON.parse(readFileSync(bundle, 'utf8')) as JsonObject;
  // The YAML twin the contract runner hands Dredd, as the build writes it.
  writeFileSync(join(scratch, 'admin.openapi.yaml'), YAML.stringify(bundled));
  served = await startMockServers({
    apis: ['admin'],
    ports: { admin: 0 },
    specs: { admin: createSpecModel(bundled) },
  });
}, 50_000);
afterAll(async () => {
  await served?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const call = (query: string, scopes: readonly string[]) =>
  fetch(`${served.mocks[0]?.url}${path}${query}`, {
    headers: {
      authorization: `Bearer ${issueDemoTokens(served.authority, scopes, 'scratchmall').access_token}`,
    },
  });

describe('adding an operation to the spec only', () => {
  it('is served with its documented example, counted against the rate limit', async () => {
    const response = await call('', ['mall.read_category']);
    expect(response.status).toBe(200);
    const model = createSpecModel(bundled);
    const operation = model.operation(operationId);
    expect(operation?.pathTemplate).toBe(path);
    const ok = model.resolve(operation?.responses['200']);
    const example = model.resolve(nodeAt(ok, '#/content/application~1json/examples/CategoriesCount'));
    expect(await response.json()).toEqual(example.value);
    expect(response.headers.get('x-api-call-limit')).toMatch(/^\d+\/40$/);
  });

  it('refuses a parameter its schema forbids, naming it', async () => {
    const response = await call('?category_depth=99', ['mall.read_category']);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { more_info: { violations: { name: string }[] } } };
    expect(body.error.more_info.violations.map((violation) => violation.name)).toEqual(['category_depth']);
  });

  it('asks for the scope its file names', async () => {
    const response = await call('', ['mall.read_product']);
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { more_info: { required_scope: string } } };
    expect(body.error.more_info.required_scope).toBe('mall.read_category');
  });

  it('appears in the types generated from the bundle', async () => {
    const types = join(scratch, 'admin.ts');
    await run(bin('openapi-typescript'), [join(scratch, 'admin.openapi.json'), '-o', types], {
      cwd: scratch,
    });
    const generated = readFileSync(types, 'utf8');
    expect(generated).toContain(`"${path}"`);
    expect(generated).toContain(`${operationId}: {`);
  });

  it('is listed by the docs site: in the reference search and the Postman collection', async () => {
    const model = createSpecModel(bundled);
    const reference = referenceDocuments({ name: 'admin', shortTitle: 'Admin' }, model);
    expect(reference.find((document) => document.id === `admin:${operationId}`)?.section).toContain(
      `GET ${path}`,
    );
    const demo = { clientId: 'demo-app', clientSecret: 'demo-app-secret' };
    const url = 'http://127.0.0.1:4011';
    const { collection } = await postmanCollection({
      name: 'admin',
      model,
      mockUrl: url,
      oauthMockUrl: url,
      demo,
    });
    const paths = requestItems(collection.item).map(
      (item: { request: { url: { path: string[] } } }) => `/${item.request.url.path.join('/')}`,
    );
    expect(paths).toContain(path);
  });

  it('gives the contract tests one Dredd transaction per documented response', async () => {
    const description = join(scratch, 'admin.openapi.yaml');
    // Dredd logs the names as it exits; into a file (written synchronously) none is lost, as a pipe may.
    const log = join(scratch, 'dredd-names.log');
    const fd = openSync(log, 'w');
    try {
      const dredd = spawn(bin('dredd'), [description, 'http://127.0.0.1:9', '--names', '--color', 'false'], {
        cwd: scratch,
        stdio: ['ignore', fd, fd],
      });
      await new Promise((done) => dredd.on('close', done));
    } finally {
      closeSync(fd);
    }
    const stdout = readFileSync(log, 'utf8');
    const names = [...stdout.matchAll(/^info: (\S+) > Count scratch notes > (\d{3}) /gm)];
    const documented = createSpecModel(bundled).operation(operationId)?.responseCodes ?? [];
    expect(documented.length).toBeGreaterThan(1);
    expect(names.map(([, template, status]) => `${template} ${status}`)).toEqual(
      documented.map((status) => `${path} ${status}`),
    );
  });
});
