#!/usr/bin/env node
// `npm start` after the build: serves docs/dist on 127.0.0.1:8080 and every mock API on its own
// port, stateful (each mall id its own sandbox mall, created on first use from seed 1), prints the
// addresses and the demo credentials, and stops everything on Ctrl-C.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoCollectionClients, demoOAuthClient, startMockServers } from '@mall-api/mock-server';
import { startDocsServer } from '../../docs/build/serve.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const quiet = process.argv.includes('--quiet');
const log = quiet ? undefined : (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

const docs = await startDocsServer({ root: join(repoRoot, 'docs', 'dist'), port: 8080 });
const served = await startMockServers({ ...(log ? { log } : {}), sandbox: { seed: 1 } });
const mocks = served.mocks;

const [demo] = demoCollectionClients;
const collectionMock = mocks.find((mock) => mock.api === 'collection');
process.stdout.write(
  [
    '',
    `docs site            ${docs.url}/`,
    ...mocks.map((mock) => `${`${mock.api} mock`.padEnd(21)}${mock.url}`),
    '',
    ...(demo && collectionMock
      ? [
          `collection demo credentials: ${demo.clientId} / ${demo.clientSecret}`,
          `try: curl -u ${demo.clientId}:${demo.clientSecret} '${collectionMock.url}/api/products?collection_product_category=C100210'`,
        ]
      : []),
    ...(mocks.length > 1
      ? [
          `OAuth demo app (admin, analytics): client_id ${demoOAuthClient.clientId}, client_secret ${demoOAuthClient.clientSecret}`,
        ]
      : []),
    'Malls: each mall id is its own sandbox (http://<mall>.localhost:4011 or http://127.0.0.1:4011/__mall/<mall>);',
    'control API for tests: /__mock/ on every mock port (loopback only).',
    '',
    'Press Ctrl-C to stop.',
    '',
  ].join('\n'),
);

const stop = async () => {
  await Promise.all([docs.close(), served.close()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
