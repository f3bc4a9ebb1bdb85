#!/usr/bin/env node
// Benchmark: how long TypeScript takes to check a file that calls every operation of a client in
// one `Promise.all`, against the same file on a bare openapi-fetch client of the same `paths`
// (the baseline, measured in the same run). For each client it writes both files into a scratch
// folder inside the package (so they resolve the package as an app would), runs `tsc --noEmit
// --extendedDiagnostics` three times each and prints the median check time, the instantiation
// count and the ratio to the baseline. Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const runs = 3;
const clients = {
  collection: "createCollectionClient({ clientId: 'id', clientSecret: 'secret' })",
  admin: "createAdminClient({ mallId: 'demomall', auth: { accessToken: 'token' } })",
  analytics: "createAnalyticsClient({ auth: { accessToken: 'token' } })",
};

/**
 * The source of a module that calls every operation of `operationIds` on `client` in one `Promise.all`.
 * @param {string} api
 * @param {string} client an expression of the client
 * @param {Record<string, Record<string, string>>} operationIds
 */
function source(api, client, operationIds) {
  const factory = `create${api[0]?.toUpperCase()}${api.slice(1)}Client`;
  const calls = Object.entries(operationIds).flatMap(([path, methods]) =>
    Object.keys(methods).map(
      (method) => `  client.${method}('${path}', {} as InitOf<'${path}', '${method.toLowerCase()}'>),`,
    ),
  );
  return [
    `import createClient, { type MaybeOptionalInit } from 'openapi-fetch';`,
    `import { ${factory}, type paths } from '@mall-api/${api}-client';`,
    `type InitOf<P extends keyof paths, M extends keyof paths[P]> = NonNullable<MaybeOptionalInit<paths[P], M>>;`,
    `void createClient; void ${factory};`,
    `const client = ${client};`,
    'export const everyOperation = Promise.all([',
    ...calls,
    ']);',
    '',
  ].join('\n');
}

/**
 * Median check time (ms) and instantiations of `tsc` over the project in `folder`.
 * @param {string} folder
 */
function check(folder) {
  /** @type {{ checkMs: number, instantiations: number }[]} */
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const output = execFileSync(process.execPath, [tsc, '-p', folder, '--extendedDiagnostics'], {
      encoding: 'utf8',
    });
    const checkSeconds = Number(/Check time:\s+([\d.]+)s/.exec(output)?.[1]);
    const instantiations = Number(/Instantiations:\s+(\d+)/.exec(output)?.[1]);
    samples.push({ checkMs: checkSeconds * 1000, instantiations });
  }
  samples.sort((a, b) => a.checkMs - b.checkMs);
  return samples[Math.floor(runs / 2)] ?? { checkMs: Number.NaN, instantiations: 0 };
}

for (const [api, expression] of Object.entries(clients)) {
  const packageDir = join(root, 'packages', `${api}-client`);
  const generated = join(packageDir, 'dist', 'generated', 'operation-ids.js');
  /** @type {{ operationIds: Record<string, Record<string, string>> }} */
  const { operationIds } = await import(pathToFileURL(generated).href);
  const count = Object.values(operationIds).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
  const scratch = join(packageDir, '.type-check-bench');
  /** @type {Record<string, { checkMs: number, instantiations: number }>} */
  const results = {};
  try {
    for (const [variant, client] of [
      ['client', expression],
      ['openapi-fetch', 'createClient<paths>()'],
    ]) {
      const folder = join(scratch, String(variant));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'every-operation.ts'), source(api, String(client), operationIds));
      writeFileSync(
        join(folder, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../../tsconfig.base.json',
          compilerOptions: { noEmit: true, rootDir: '.', types: [] },
          include: ['every-operation.ts'],
        }),
      );
      results[String(variant)] = check(folder);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const ours = results.client;
  const bare = results['openapi-fetch'];
  if (ours === undefined || bare === undefined) throw new Error(`no result for ${api}`);
  process.stdout.write(
    `${`${api} (${count} operations)`.padEnd(28)} client ${ours.checkMs.toFixed(0).padStart(5)} ms check, ${String(ours.instantiations).padStart(7)} instantiations | ` +
      `bare openapi-fetch ${bare.checkMs.toFixed(0).padStart(5)} ms, ${String(bare.instantiations).padStart(7)} | ratio ${(ours.checkMs / bare.checkMs).toFixed(2)}\n`,
  );
}
