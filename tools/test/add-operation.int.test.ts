// CONTRIBUTING's recipe for adding an operation, followed on a scratch copy of the admin spec
// sources: one path file and one `$ref` in the root document, bundled with the Redocly CLI the build
// uses, and nothing else written. The mock serves the new operation from that bundle (passed as
// `specs`) with its documented example, refuses a bad parameter with 422 naming it, asks for the
// operation's scope, counts it against the rate limit; the generated types list it, the docs site's
// reference search and Postman collection list it, and Dredd (the contract runner's engine) makes a
// transaction of each of its documented responses. Then step 5, the stateful half, on a scratch
// copy of the sandbox package (its sources, package.json and tsconfig; the repository is never
// written): the admin types are generated from the scratch bundle by the repository's codegen
// (`apiTypesModule`, as the bundle step writes `@mall-api/specs/types/admin`) and stand in for them,
// the handler goes into the admin view's category handlers (admin-categories.ts), and `tsc` checks it against them (a misspelt
// operation id and a query field the operation does not have each fail the check; the checks after
// the first are incremental); the build's
// sandbox malls, given the scratch spec, are served by the mocks in sandbox mode, and the new
// operation counts what writes through an existing one changed.
import { execFile, spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import type { SandboxMalls } from '@mall-api/sandbox';
import { createSpecModel, type JsonObject, loadSpecs, nodeAt } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { postmanCollection, requestItems } from '../../docs/build/postman-collections.mjs';
import { referenceDocuments } from '../../docs/build/search-index.mjs';
import { apiTypesModule } from '../src/codegen/api-types.mjs';
import { repoRoot } from '../src/published-packages.mjs';

const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const path = '/api/v2/admin/scratchnotes/count';
const operationId = 'countScratchNotes';

let scratch: string;
let bundled: JsonObject;
let served: Awaited<ReturnType<typeof startMockServers>>;
let types: Promise<string> | undefined;
/** The admin types of the scratch bundle, by the repository's codegen (as the bundle step writes the specs package's). */
const scratchTypes = () => {
  types ??= apiTypesModule(join(scratch, 'admin.openapi.json'));
  return types;
};

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

const call = async (query: string, scopes: readonly string[]) =>
  fetch(`${served.mocks[0]?.url}${path}${query}`, {
    headers: {
      authorization: `Bearer ${(await issueDemoTokens(served.authority, scopes, 'scratchmall')).access_token}`,
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
    const generated = await scratchTypes();
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

/** The admin view's handler map, where step 5 puts a handler, in the scratch copy of the sandbox. */
/** Where the admin view's category handlers begin (the recipe's step 5 adds a category read there). */
const handlerMapStart = '  return {\n    // Categories\n';
/** Step 5's handler: the categories at a depth (top-level ones by default), as writes left them. */
const countScratchNotes =
  '    countScratchNotes: ({ query }) => found({ count: categoryList("countScratchNotes", { category_depth: query.category_depth ?? 1 }).length }),\n';

describe('adding a sandbox handler for the operation (step 5)', () => {
  let sandbox: string;
  let malls: SandboxMalls;
  let stateful: Awaited<ReturnType<typeof startMockServers>>;

  /** Writes `handler` into the scratch admin view's category handlers and type-checks the scratch sandbox (emitting with `emit`). */
  const buildWith = async (handler: string, emit = false) => {
    const view = join(sandbox, 'src', 'views', 'admin-categories.ts');
    const shipped = readFileSync(
      join(repoRoot, 'packages', 'sandbox', 'src', 'views', 'admin-categories.ts'),
      'utf8',
    );
    expect(shipped).toContain(handlerMapStart);
    writeFileSync(view, shipped.replace(handlerMapStart, `${handlerMapStart}${handler}`));
    // Incremental: the check after the first parses again but checks only what the changed view
    // touches (tsc's own bookkeeping, in the scratch copy), as an editor's repeated builds do.
    const incremental = ['--incremental', '--tsBuildInfoFile', join(sandbox, 'tsconfig.tsbuildinfo')];
    const args = ['-p', join(sandbox, 'tsconfig.json'), '--pretty', 'false', ...incremental];
    if (!emit) args.push('--noEmit');
    return run(bin('tsc'), args, { cwd: sandbox }).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
    );
  };

  beforeAll(async () => {
    // The scratch sandbox: its sources (no tests), package.json and tsconfig; its dependencies are the repository's.
    sandbox = join(scratch, 'sandbox');
    const source = join(repoRoot, 'packages', 'sandbox');
    cpSync(join(source, 'src'), join(sandbox, 'src'), {
      recursive: true,
      filter: (file) => !file.endsWith('.test.ts') && !file.includes(`${sep}generated`),
    });
    cpSync(join(source, 'package.json'), join(sandbox, 'package.json'));
    const tsconfig = JSON.parse(readFileSync(join(source, 'tsconfig.json'), 'utf8'));
    tsconfig.extends = join(repoRoot, 'tsconfig.base.json');
    writeFileSync(join(sandbox, 'tsconfig.json'), JSON.stringify(tsconfig));
    symlinkSync(join(repoRoot, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    // The admin types of the scratch bundle, by the repository's codegen, where the sandbox finds the
    // specs package's types (its own node_modules, ahead of the repository's): the other APIs' types
    // as the bundle step wrote them, the admin API's from the scratch bundle.
    const specsPackage = join(sandbox, 'node_modules', '@mall-api', 'specs');
    cpSync(join(repoRoot, 'specs', 'types'), join(specsPackage, 'types'), { recursive: true });
    cpSync(join(repoRoot, 'specs', 'package.json'), join(specsPackage, 'package.json'));
    writeFileSync(join(specsPackage, 'types', 'admin.d.cts'), await scratchTypes());
  }, 30_000);
  afterAll(async () => {
    await stateful?.close();
    await malls?.close();
  });

  it('fails the type check for a misspelt operation id', async () => {
    const built = await buildWith(countScratchNotes.replace('countScratchNotes', 'countScratchNote'));
    expect(built.ok).toBe(false);
    expect(built.output).toMatch(/admin-categories\.ts\(\d+,\d+\): error TS\d+: .*'countScratchNote'/);
  }, 30_000);

  it('fails the type check for a query field the operation does not have', async () => {
    const built = await buildWith(countScratchNotes.replace('query.category_depth', 'query.scratch_depth'));
    expect(built.ok).toBe(false);
    expect(built.output).toMatch(/admin-categories\.ts\(\d+,\d+\): error TS2339: .*'scratch_depth'/);
  }, 30_000);

  it('is served in sandbox mode: the new operation counts what writes through createCategory changed', async () => {
    const built = await buildWith(countScratchNotes, true);
    expect(built).toEqual({ ok: true, output: '' });
    const scratchSandbox = (await import(
      pathToFileURL(join(sandbox, 'dist', 'index.js')).href
    )) as typeof import('@mall-api/sandbox');
    const admin = createSpecModel(bundled);
    malls = await scratchSandbox.createSandboxMalls({ newMall: 'empty', specs: await loadSpecs({ admin }) });
    expect(malls.handles('admin', operationId)).toBe(true);
    stateful = await startMockServers({
      apis: ['admin'],
      ports: { admin: 0 },
      specs: { admin },
      sandbox: malls,
    });
    const url = stateful.mocks[0]?.url ?? '';
    const headers = {
      authorization: `Bearer ${(await issueDemoTokens(stateful.authority, ['mall.read_category', 'mall.write_category'], 'scratchmall')).access_token}`,
      'content-type': 'application/json',
    };
    const count = async (query = '') => {
      const response = await fetch(`${url}${path}${query}`, { headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as { count: number }).count;
    };
    const createCategory = async (request: Record<string, unknown>) => {
      const response = await fetch(`${url}/api/v2/admin/categories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ shop_no: 1, request }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { category: { category_no: number } }).category;
    };
    expect(await count()).toBe(0);
    const top = await createCategory({ category_name: 'Scratch Notes' });
    await createCategory({ category_name: 'More Notes' });
    await createCategory({ category_name: 'Sub Notes', parent_category_no: top.category_no });
    expect(await count()).toBe(2);
    expect(await count('?category_depth=2')).toBe(1);
    // The refusals of the front layer hold for it as for any operation.
    expect((await fetch(`${url}${path}?category_depth=99`, { headers })).status).toBe(422);
  }, 60_000);
});
