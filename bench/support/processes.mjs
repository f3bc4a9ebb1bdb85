// Benchmark support: start a server process, wait until it answers, and stop it.
import { spawn } from 'node:child_process';

export { freePort } from '@mall-api/test-support/free-port';

/**
 * A process started by {@link startProcess}.
 * @typedef {object} StartedProcess
 * @property {number} readyMs ms from spawning until the probe first answered true
 * @property {number | undefined} pid the process id, for reading its CPU time
 * @property {() => Promise<void>} stop sends SIGTERM and resolves once the process has exited
 */

/**
 * Spawns a command and resolves once `probe()` answers true (polling), with the elapsed ms.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {() => Promise<boolean>} probe
 * @param {{ timeoutMs?: number, onStderr?: (text: string) => void }} [options] `onStderr` sees what the
 *   process writes to standard error (passed through to this one's either way)
 * @returns {Promise<StartedProcess>}
 */
export async function startProcess(command, args, probe, { timeoutMs = 30_000, onStderr } = {}) {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', onStderr ? 'pipe' : 'inherit'] });
  child.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
    process.stderr.write(chunk);
    onStderr?.(chunk.toString());
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  while (!(await probe().catch(() => false))) {
    if (exited) throw new Error(`${command} ${args.join(' ')} exited before it was ready`);
    if (performance.now() - started > timeoutMs) throw new Error(`${command} was not ready in time`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    readyMs: performance.now() - started,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
