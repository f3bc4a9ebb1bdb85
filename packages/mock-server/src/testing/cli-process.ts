// Test support: runs the built `mall-api-mock` command as a child process — started until it says
// it is ready, or run to its exit with its output — and gets a demo access token from its admin
// API through the OAuth flow. Not part of the package's API.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { demoAppToken } from '../qa/started-mock.js';

/** The built command. */
export const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

/** What the command says once it serves, in either log format. */
const readyLine = /demo credentials|OAuth demo app|"message":"ready"/;

/** Starts the command; `ready` resolves with its output once it serves (rejects if it exits first). */
export function startCli(
  args: readonly string[],
  { nodeOptions = [], env = {} }: { nodeOptions?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): { child: ChildProcess; ready: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, [...nodeOptions, cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (readyLine.test(output)) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  // A caller that never waits for readiness (it watches the output instead, then stops the
  // command) must not leave the exit's rejection unhandled; one that awaits `ready` still gets it.
  ready.catch(() => {});
  return { child, ready, output: () => output };
}

/** Runs the command to its exit: its exit code, standard output and standard error. */
export function runCli(
  args: readonly string[],
  { nodeOptions = [], env = {} }: { nodeOptions?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeOptions, cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the exit code of a child. */
export const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** The URL the command printed for an API. */
export const urlOf = (output: string, api = '\\w+'): string =>
  new RegExp(`mock ${api} API listening on (http://[^\\s"]+)`).exec(output)?.[1] ?? '';

/** An access token from the admin mock at `url`, through the OAuth flow, with the given scopes. */
export const demoToken = async (
  url: string,
  scopes = 'mall.read_category,mall.write_category',
): Promise<string> => (await demoAppToken(url, scopes.split(','))).access_token;
