// Runs Dredd for one API against a prepared target with our spec-driven hooks, and reports the
// outcome; with `junit`, Dredd's xunit reporter also writes a JUnit XML report there. Library part
// of the contract runner: the CLI (cli.ts) and the tests call it.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiName, bundledSpecPath } from '@mall-api/spec-model';
import type { ContractSettings } from './settings.js';
import type { ContractTarget } from './targets.js';

const require = createRequire(import.meta.url);
/** The compiled hooks (from src/ in tests as from dist/ when installed: both sit beside dist/). */
const compiledHooks = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'hooks');
/** The hook file Dredd loads. */
const hookFile = join(compiledHooks, 'contract-hooks.cjs');
/** Loaded into the Dredd process before Dredd: spares it a deep copy of the parsed spec (dredd-preload.cts). */
const dreddPreload = join(compiledHooks, 'dredd-preload.cjs');

/** Dredd's command; Dredd is an optional peer dependency, so a missing one is said plainly. */
function dreddBin(): string {
  try {
    return join(dirname(require.resolve('dredd/package.json')), 'bin', 'dredd');
  } catch (cause) {
    throw new Error(
      'Dredd is not installed: it is a peer dependency of @mall-api/contract-tests (npm install --save-dev dredd@^14.1.0; the README lists the overrides that lift its vulnerable packages)',
      { cause },
    );
  }
}

/** What one contract run found. */
export interface ContractResult {
  readonly exitCode: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Dredd's whole output. */
  readonly output: string;
}

/** A run of one API against a target. */
export interface RunContractOptions {
  readonly api: ApiName;
  readonly target: ContractTarget;
  /** Receives Dredd's output as it comes. */
  readonly output?: (chunk: string) => void;
  /** Where to write a JUnit XML report. */
  readonly junit?: string | undefined;
  /** The target is one mall of our mock: waiting moves its clock instead of passing. */
  readonly mockClock?: boolean;
}

/** Runs the contract tests of `api` against `target`. */
export async function runContract({
  api,
  target,
  output,
  junit,
  mockClock = false,
}: RunContractOptions): Promise<ContractResult> {
  const specFile = bundledSpecPath(api);
  const settings: ContractSettings = {
    api,
    specFile,
    baseUrl: target.baseUrl,
    targetIsMock: target.targetIsMock,
    sandbox: target.sandbox,
    authorizations: target.authorizations,
    ...(target.mallIds ? { mallIds: target.mallIds } : {}),
    forbiddenAuthorizations: target.forbiddenAuthorizations,
    ...(target.oauth ? { oauth: target.oauth } : {}),
    ...(mockClock ? { mockClock } : {}),
  };
  const report = junit ? resolve(junit) : undefined;
  if (report) mkdirSync(dirname(report), { recursive: true });
  const args = [
    dreddBin(),
    specFile.replace(/\.json$/, '.yaml'),
    target.baseUrl,
    '--hookfiles',
    hookFile,
    '--loglevel',
    process.env.DREDD_LOGLEVEL ?? 'error',
    '--inline-errors',
    '--color',
    'false',
    ...(report ? ['--reporter', 'xunit', '--output', report] : []),
  ];
  const child = spawn(process.execPath, ['--no-deprecation', '--require', dreddPreload, ...args], {
    env: { ...process.env, CONTRACT_SETTINGS: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const collect = (chunk: Buffer) => {
    const piece = chunk.toString();
    text += piece;
    output?.(piece);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exitCode = await new Promise<number>((done) => child.on('close', (code) => done(code ?? 1)));
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);
  return {
    exitCode,
    passed: count('passing'),
    failed: count('failing') + count('errors'),
    skipped: count('skipped'),
    output: text,
  };
}
