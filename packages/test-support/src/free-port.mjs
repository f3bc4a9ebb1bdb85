// A free TCP port on the loopback interface, for the throwaway servers tests and benchmarks start
// (Redis, the local registry, mocks). The port is free when asked; nothing reserves it.
import { createServer } from 'node:net';

/**
 * Asks the kernel for a free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
