// Runs Dredd for one API against a prepared target with our spec-driven hooks, and reports the
// outcome. Library part of the contract runner: the CLI (bin/contract.js) and the tests call it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const dreddBin = join(dirname(require.resolve('dredd/package.json')), 'bin', 'dredd');

/**
 * Runs the contract tests of `api` against `target` (see targets.js).
 * @param {{ api: string, target: { baseUrl: string, targetIsMock: boolean, sandbox: boolean, authorizations: string[], forbiddenAuthorizations: string[] }, output?: (chunk: string) => void }} options
 * @returns {Promise<{ exitCode: number, passed: number, failed: number, skipped: number, output: string }>}
 */
export async function runContract({ api, target, output }) {
  const settings = {
    specFile: require.resolve(`@mall-api/specs/${api}.openapi.json`),
    baseUrl: target.baseUrl,
    targetIsMock: target.targetIsMock,
    sandbox: target.sandbox,
    authorizations: target.authorizations,
    forbiddenAuthorizations: target.forbiddenAuthorizations,
    oauth: target.oauth,
  };
  const args = [
    dreddBin,
    require.resolve(`@mall-api/specs/${api}.openapi.yaml`),
    target.baseUrl,
    '--hookfiles',
    join(packageRoot, 'hooks', 'contract-hooks.cjs'),
    '--loglevel',
    process.env.DREDD_LOGLEVEL ?? 'error',
    '--inline-errors',
    '--color',
    'false',
  ];
  const child = spawn(process.execPath, ['--no-deprecation', ...args], {
    env: { ...process.env, CONTRACT_SETTINGS: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const collect = (chunk) => {
    const piece = chunk.toString();
    text += piece;
    output?.(piece);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exitCode = await new Promise((done) => child.on('close', (code) => done(code ?? 1)));
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);
  return {
    exitCode,
    passed: count('passing'),
    failed: count('failing') + count('errors'),
    skipped: count('skipped'),
    output: text,
  };
}
