// A throwaway npm registry for install tests and benchmarks: verdaccio on a free port of a loopback
// address of its own (so no registry URL an earlier run left in npm's cache is ever met again, and
// an install may take cached metadata without asking, `--prefer-offline`), with its storage in a temporary directory and no uplinks, so it never reaches another registry and
// serves only what is published to it. Packages of one scope are published there; a scratch
// project then installs them from it as a user installs from the public registry (its other
// dependencies come from the registry npm is configured with). Not for anything long-lived.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@mall-api/test-support/free-port';
import { stringify } from 'yaml';

const run = promisify(execFile);

/**
 * @typedef {object} LocalRegistry
 * @property {string} url the registry's URL, ending in `/`
 * @property {(tarball: string) => Promise<void>} publish publishes a packed tarball
 * @property {(directory: string) => void} useFor writes a project `.npmrc` that takes the scope from here
 * @property {() => Promise<void>} stop stops the registry and removes its storage
 */

/** verdaccio's command, as its package.json names it. */
function verdaccioBin() {
  const manifest = createRequire(import.meta.url).resolve('verdaccio/package.json');
  const directory = dirname(manifest);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(directory, typeof bin === 'string' ? bin : bin.verdaccio);
}

/**
 * Waits until the registry answers its ping, or fails as soon as `failure` has a reason.
 * @param {string} url
 * @param {number} deadline
 * @param {() => string | undefined} failure
 */
async function waitUntilUp(url, deadline, failure) {
  while (Date.now() < deadline) {
    const reason = failure();
    if (reason) throw new Error(reason);
    const up = await fetch(new URL('-/ping', url)).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the local registry did not answer at ${url}`);
}

/**
 * Starts the registry for packages of `scope` (e.g. `@mall-api`) and signs in one publisher.
 * @param {string} scope
 * @returns {Promise<LocalRegistry>}
 */
export async function startLocalRegistry(scope) {
  const home = mkdtempSync(join(tmpdir(), 'mall-api-registry-'));
  const port = await freePort();
  const octet = () => 1 + Math.floor(Math.random() * 254);
  const host = `127.${octet()}.${octet()}.${octet()}`;
  const url = `http://${host}:${port}/`;
  const config = {
    storage: join(home, 'storage'),
    auth: { htpasswd: { file: join(home, 'htpasswd'), max_users: 1 } },
    // No `uplinks` and no `proxy` on any package: nothing is ever fetched from elsewhere.
    packages: {
      [`${scope}/*`]: { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated' },
    },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'json', level: 'error' },
    listen: `${host}:${port}`,
  };
  const configFile = join(home, 'config.yaml');
  writeFileSync(configFile, stringify(config));
  const server = spawn(process.execPath, [verdaccioBin(), '--config', configFile], {
    cwd: home,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  server.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill();
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(url, Date.now() + 60_000, () =>
      server.exitCode === null ? undefined : `verdaccio exited with ${server.exitCode}: ${errors}`,
    );
    const user = { name: 'publisher', password: `p-${process.pid}-${Date.now()}` };
    const signedUp = await fetch(new URL(`-/user/org.couchdb.user:${user.name}`, url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, type: 'user', roles: [] }),
    });
    const { token } = /** @type {{ token?: string }} */ (await signedUp.json());
    if (!signedUp.ok || !token)
      throw new Error(`the local registry refused the publisher: ${signedUp.status}`);
    const hostPath = `//${host}:${port}/`;
    const publisherRc = join(home, 'publisher.npmrc');
    writeFileSync(publisherRc, `registry=${url}\n${hostPath}:_authToken=${token}\n`);
    return {
      url,
      async publish(tarball) {
        await run('npm', ['publish', tarball, '--registry', url, '--userconfig', publisherRc], {
          cwd: home,
          maxBuffer: 16 * 1024 * 1024,
        });
      },
      useFor(directory) {
        writeFileSync(join(directory, '.npmrc'), `${scope}:registry=${url}\n`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
