#!/usr/bin/env node
// `mall-api-mock`: serves the mock APIs from the command line, stateful by default.
//   mall-api-mock                      every API on its default port, answering from sandbox malls
//                                      (each mall id its own, created on first use from seed 1)
//   mall-api-mock collection --port 0  one API on a chosen port
//   mall-api-mock [--data-dir DIR] [--seed N] [--shops N] [--global-edition] [--age-verification]
//                                      sandbox settings: SQLite in DIR so malls survive a restart;
//                                      the seed of new malls' sample data; a multi-shop mall; the
//                                      mall settings that switch on the rules depending on them
//   mall-api-mock --examples           answers from the spec's examples only (no state)
//   mall-api-mock proxy --api A --target URL   the validating proxy in front of a real service (proxy/)
//   --control-token T / --control-remote  guard the control API (/__mock/): require a token, or
//                                      accept callers off the loopback interface
// Prints each URL and the demo credentials, logs one line per request (never credentials) unless
// --quiet, and stops cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { type ApiName, apiProfiles } from './api-profiles.js';
import { demoCollectionCredentials, demoOAuthApp } from './demo-credentials.js';
import { startMockServers } from './mock-server.js';

const usage = `Usage: mall-api-mock [api ...] [--port N] [--host H] [--quiet] [--examples | [--data-dir DIR] [--seed N] [--shops N] [--global-edition] [--age-verification]] [--control-token T] [--control-remote]
APIs: ${Object.keys(apiProfiles).join(', ')} (default: all, each on its own port)`;

async function main(): Promise<void> {
  if (process.argv[2] === 'proxy') {
    const { runProxyCli } = await import('./proxy/proxy-cli.js');
    return runProxyCli(process.argv.slice(3));
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      quiet: { type: 'boolean', default: false },
      sandbox: { type: 'boolean', default: false },
      examples: { type: 'boolean', default: false },
      'control-token': { type: 'string' },
      'control-remote': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      seed: { type: 'string' },
      shops: { type: 'string' },
      'global-edition': { type: 'boolean', default: false },
      'age-verification': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const known = Object.keys(apiProfiles);
  const unknown = positionals.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown API: ${unknown.join(', ')}\n${usage}`);
  const apis = (positionals.length > 0 ? positionals : known) as ApiName[];
  if (values.port !== undefined && apis.length !== 1) throw new Error('--port needs exactly one API');
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`--port must be a TCP port number, got ${values.port}`);
  }
  const globalEdition = values['global-edition'] === true;
  const ageVerification = values['age-verification'] === true;
  if (values.examples && values.sandbox) throw new Error('--examples and --sandbox exclude each other');
  if (
    values.examples &&
    (values['data-dir'] !== undefined ||
      values.seed !== undefined ||
      values.shops !== undefined ||
      globalEdition ||
      ageVerification)
  )
    throw new Error(
      '--data-dir, --seed, --shops, --global-edition and --age-verification need the sandbox (drop --examples)',
    );
  const shops = values.shops === undefined ? 1 : Number(values.shops);
  if (!(Number.isInteger(shops) && shops >= 1 && shops <= 99))
    throw new Error(`--shops must be a number of shops from 1 to 99, got ${values.shops}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!(Number.isInteger(seed) && seed >= 0))
    throw new Error(`--seed must be a non-negative integer, got ${values.seed}`);
  const dataDir = values['data-dir'];
  const sandbox = !values.examples
    ? {
        store: dataDir === undefined ? ('memory' as const) : { dataDir },
        seed,
        mall: { globalEdition, ageVerification, shops },
      }
    : undefined;
  const log = values.quiet ? undefined : (line: string) => process.stdout.write(`${line}\n`);
  // Handle the signals before anything starts, so a stop during start-up (seeding, say) is clean too.
  let served: Awaited<ReturnType<typeof startMockServers>> | undefined;
  const stop = async () => {
    await served?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  const ports = port !== undefined && apis[0] ? { [apis[0]]: port } : {};
  served = await startMockServers({
    apis,
    host: values.host,
    ports,
    ...(log ? { log } : {}),
    ...(sandbox ? { sandbox } : {}),
    control: {
      ...(values['control-token'] === undefined ? {} : { token: values['control-token'] }),
      allowRemote: values['control-remote'] === true,
    },
  });
  if (sandbox)
    process.stdout.write(
      `sandbox mode: data ${dataDir === undefined ? 'in memory' : `in ${dataDir}`}, seed ${seed}${shops > 1 ? `, ${shops} shops` : ''}${globalEdition ? ', global edition' : ''}${ageVerification ? ', age verification on' : ''}\n`,
    );
  else process.stdout.write('example mode: answers come from the spec examples; nothing is stored\n');
  process.stdout.write(
    `control API: /__mock/ on every port (${values['control-remote'] ? 'any caller' : 'loopback only'}${values['control-token'] === undefined ? '' : ', token required'})\n`,
  );
  for (const mock of served.mocks) process.stdout.write(`mock ${mock.api} API listening on ${mock.url}\n`);
  if (apis.includes('collection')) {
    const demo = demoCollectionCredentials[0];
    if (demo) process.stdout.write(`collection demo credentials: ${demo.clientId}:${demo.clientSecret}\n`);
  }
  if (apis.some((api) => apiProfiles[api].auth === 'bearer')) {
    process.stdout.write(
      `OAuth demo app: client_id ${demoOAuthApp.clientId}, client_secret ${demoOAuthApp.clientSecret}\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`mall-api-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
