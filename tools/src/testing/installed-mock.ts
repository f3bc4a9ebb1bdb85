// Test support: starts the `mall-api-mock` an app installed (its node_modules/.bin entry, run
// directly rather than through npx, so that stopping it stops the mock itself and nothing is left
// running) and resolves with each API's URL once every asked API listens. Not for production use;
// tests import it by path.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/** A mock started from an installed package. */
export interface InstalledMock {
  /** API name → the URL it listens on. */
  readonly urls: Record<string, string>;
  /** Stops the mock and waits until it has exited. */
  stop(): Promise<void>;
}

/** How long the mock may take to listen (an installed package starts cold). */
const startMs = 180_000;

/** Stops `child` and waits for its exit (at once if it has already exited). */
async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill();
  await exit;
}

/**
 * Starts `<app>/node_modules/.bin/mall-api-mock` with `args` (and `--quiet`) in `app`; resolves
 * once every API of `apis` listens. On a failed start the mock is stopped before the rejection.
 */
export async function startInstalledMock(
  app: string,
  apis: readonly string[],
  args: readonly string[],
): Promise<InstalledMock> {
  const child = spawn(join(app, 'node_modules', '.bin', 'mall-api-mock'), [...args, '--quiet'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const urls = await new Promise<Record<string, string>>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the mock did not start: ${output}`)), startMs);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const urls = Object.fromEntries(
          [...output.matchAll(/mock (\w+) API listening on (\S+)/g)].map((m) => [m[1], m[2]]),
        );
        if (apis.every((api) => urls[api])) {
          clearTimeout(timer);
          resolve(urls as Record<string, string>);
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the mock exited with ${code}: ${output}`));
      });
    });
    return { urls, stop: () => stopped(child) };
  } catch (error) {
    await stopped(child);
    throw error;
  }
}
