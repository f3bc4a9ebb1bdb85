// The one-process publint and attw checks the install test runs over every tarball
// (tools/src/testing/package-lint.mjs) fail a package with a problem, as the commands do. Small
// packages are packed here with tar (laid out as `npm pack` lays them, under `package/`) and linted
// in one run of the script: a sound ES-only one passes both (attw's esm-only profile leaves out the
// CommonJS resolution, where an ES-only package cannot load); an export of a file it does not ship
// fails publint and attw; CommonJS typed as an ES module (attw's "masquerading as ESM") fails attw's
// node16 run; a package with CommonJS and ES-only entry points gets one run of each profile, each
// over its own entry points.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', 'src', 'testing', 'package-lint.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'package-lint-'));

interface PackageLint {
  name: string;
  publint: string[];
  attw: { profile: string; entrypoints?: string[]; problems?: string }[];
}

/** Packs `files` and a manifest named `name` into a tarball of its own and returns its path. */
function pack(name: string, manifest: Record<string, unknown>, files: Record<string, string>): string {
  const root = join(scratch, name);
  mkdirSync(join(root, 'package'), { recursive: true });
  const all = {
    'package.json': JSON.stringify({
      name,
      version: '1.0.0',
      type: 'module',
      engines: { node: '>=20' },
      ...manifest,
    }),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) writeFileSync(join(root, 'package', file), text);
  const tarball = join(scratch, `${name}.tgz`);
  execFileSync('tar', ['-czf', tarball, '-C', root, 'package']);
  return tarball;
}

const esm = { 'index.js': 'export const one = 1;\n', 'index.d.ts': 'export declare const one: 1;\n' };
const cjs = { 'index.cjs': 'exports.one = 1;\n', 'index.d.cts': 'export declare const one: 1;\n' };
const extra = { 'extra.js': 'export const two = 2;\n', 'extra.d.ts': 'export declare const two: 2;\n' };

let results: Map<string, PackageLint>;
beforeAll(async () => {
  const tarballs = [
    pack('sound', { exports: { '.': { types: './index.d.ts', default: './index.js' } } }, esm),
    pack(
      'missing-file',
      {
        exports: {
          '.': { types: './missing.d.ts', default: './missing.js' },
          './extra': { types: './extra.d.ts', default: './extra.js' },
        },
      },
      extra,
    ),
    pack(
      'masquerading',
      { exports: { '.': { types: './index.d.ts', require: './index.cjs', default: './index.js' } } },
      { ...esm, ...cjs },
    ),
    pack(
      'mixed',
      {
        exports: {
          '.': {
            import: { types: './index.d.ts', default: './index.js' },
            require: { types: './index.d.cts', default: './index.cjs' },
          },
          './extra': { types: './extra.d.ts', default: './extra.js' },
          './package.json': './package.json',
        },
      },
      { ...esm, ...cjs, ...extra },
    ),
  ];
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...tarballs]);
  results = new Map((JSON.parse(stdout) as PackageLint[]).map((result) => [result.name, result]));
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the one-process publint and attw checks', () => {
  it('pass a sound ES-only package, checked under the esm-only profile', () => {
    expect(results.get('sound')).toMatchObject({ publint: [], attw: [{ profile: 'esm-only' }] });
    expect(results.get('sound')?.attw[0]?.problems).toBeUndefined();
  });

  it('fail a package that exports a file it does not ship, in publint and in attw', () => {
    const { publint = [], attw = [] } = results.get('missing-file') ?? {};
    expect(publint.join('\n')).toMatch(/^error: .*missing\.js/m);
    expect(attw[0]?.problems).toMatch(/"kind":"NoResolution"/);
  });

  it('fail CommonJS typed as an ES module in the node16 run', () => {
    const [run] = results.get('masquerading')?.attw ?? [];
    expect(run?.profile).toBe('node16');
    expect(run?.problems).toMatch(/"kind":"FalseESM"/);
  });

  it('check CommonJS and ES-only entry points in a run of their own each', () => {
    expect(results.get('mixed')?.attw).toEqual([
      { profile: 'node16', entrypoints: ['.'] },
      { profile: 'esm-only', entrypoints: ['./extra'] },
    ]);
    expect(results.get('mixed')?.publint).toEqual([]);
  });
});
