// Benchmark support: starts support/serve-mock.mjs (all three mocks, limits out of the way) in its
// own process on free ports and resolves to its URLs, a demo token, its pid and a stop function.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './processes.mjs';

/**
 * The mocks served by support/serve-mock.mjs in their own process.
 * @typedef {object} ServedMockProcess
 * @property {Record<import('@mall-api/rate-limit').ApiName, string>} urls base URL of each API's mock
 * @property {string} token a demo access token for the admin and analytics APIs
 * @property {number | undefined} pid the serving process, for sampling its memory
 * @property {() => Promise<void>} stop sends SIGTERM and resolves once the process has exited
 */

/**
 * Starts the mocks in their own process.
 * @param {Record<string, string>} [env] extra environment (MOCK_SANDBOX, MOCK_CHECKOUT)
 * @param {readonly string[]} [nodeOptions] options of the node process (`--cpu-prof`, say)
 * @returns {Promise<ServedMockProcess>}
 */
export async function startServeMock(env = {}, nodeOptions = []) {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const script = join(import.meta.dirname, 'serve-mock.mjs');
  const child = spawn(process.execPath, [...nodeOptions, script, ...ports.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  /** @type {Pick<ServedMockProcess, 'urls' | 'token'>} */
  const ready = await new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`serve-mock exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = /ready (\{.*\})/.exec(text)?.[1];
      if (line) resolve(JSON.parse(line));
    });
  });
  return {
    ...ready,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
