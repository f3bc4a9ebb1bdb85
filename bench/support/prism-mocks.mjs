// Benchmark support: the stock `prism mock` CLI serving each bundled spec (one process per API, as
// the CLI takes one document) on free loopback ports, for comparing our mocks with it.
import { join } from 'node:path';
import { apiNames } from '@mall-api/spec-model';
import { freePort, startProcess } from './processes.mjs';

const root = join(import.meta.dirname, '..', '..');
/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */

/**
 * Starts `prism mock` for the three APIs; resolves once each answers.
 * @returns {Promise<{ urls: Record<ApiName, string>, pids: number[], stop: () => Promise<void> }>}
 */
export async function startPrismMocks() {
  /** @type {import('./processes.mjs').StartedProcess[]} */
  const servers = [];
  const freeUrl = async () => `http://127.0.0.1:${await freePort()}`;
  /** @type {Record<ApiName, string>} */
  const urls = { collection: await freeUrl(), admin: await freeUrl(), analytics: await freeUrl() };
  const stop = async () => void (await Promise.all(servers.map((server) => server.stop())));
  try {
    for (const api of apiNames) {
      const url = urls[api];
      servers.push(
        await startProcess(
          join(root, 'node_modules/.bin/prism'),
          ['mock', '-h', '127.0.0.1', '-p', new URL(url).port, join(root, `specs/dist/${api}.openapi.yaml`)],
          async () => (await fetch(url)).status > 0,
          { timeoutMs: 60_000 },
        ),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, pids: servers.flatMap((server) => (server.pid === undefined ? [] : [server.pid])), stop };
}
