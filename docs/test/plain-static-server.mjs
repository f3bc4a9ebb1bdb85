// @ts-check
// A plain static file server for a folder, with nothing of ours in it: Python's `http.server` on
// a free loopback port. The static-host test and bench/docs-reference-load.mjs serve docs/dist
// with it, as any static host would (no compression, no routes).
import { spawn } from 'node:child_process';

/**
 * Starts `python3 -m http.server` over `folder`; resolves to its URL and a close function.
 * @param {string} folder
 * @returns {Promise<{ url: string, close: () => void }>}
 */
export function startPlainStaticServer(folder) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'python3',
      ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', folder],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let seen = '';
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      seen += chunk;
      const port = /port (\d+)/.exec(seen)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, close: () => void child.kill() });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`http.server exited ${code}`)));
  });
}
