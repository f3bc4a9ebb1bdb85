#!/usr/bin/env node
// `mall-api-mock`: serves the mock APIs from one process (or `--workers N`: worker-supervisor.ts),
// stateful by default, every API on its port with one OAuth authority; every option also comes from
// a `MALL_API_MOCK_*` variable. On SIGTERM or SIGINT it lets requests in flight finish and exits 0; a
// usage mistake exits 2, a failed start 1; shared stores not answering yet are waited for
// (store-standby.ts). Subcommands: `proxy` (proxy/proxy-cli.ts), `coverage` (qa/coverage-cli.ts).
import cluster from 'node:cluster';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  runCommand,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
import { defaultJournalLimits, defaultMallLimits } from '@mall-api/mall-state';
import { defaultControlBodyLimit, defaultControlOrigins } from './control/control-guard.js';
import { receiverTargetProblem } from './events/receiver-targets.js';
import { clientAddressOf } from './http/client-address.js';
import { type ApiName, apiProfiles } from './identity/api-profiles.js';
import { demoCollectionClients, demoOAuthClient } from './oauth/demo-credentials.js';
import { type LogFormat, messageLine } from './process/log-lines.js';
import { isPostgresUrl, workersRefusal } from './process/worker-rules.js';
import { superviseWorkers } from './process/worker-supervisor.js';
import type { ServeManyOptions, startMockServers } from './server/mock-server.js';
import { startWhenStoresAnswer } from './server/store-standby.js';
import { healthPaths } from './stages/health.js';
import { defaultApiBodyLimit } from './stages/read-body.js';

const envPrefix = 'MALL_API_MOCK_';
const apiNames = Object.keys(apiProfiles) as ApiName[];
const defaultPorts = apiNames.map((api) => `${api}=${apiProfiles[api].defaultPort}`).join(',');
const mib = 2 ** 20;

/** Every option of the command (each also read from `MALL_API_MOCK_<NAME>`). */
const options = {
  apis: {
    type: 'string',
    value: 'LIST',
    default: apiNames.join(','),
    help: 'the APIs to serve (or name them as arguments)',
  },
  ports: {
    type: 'string',
    value: 'API=N,…',
    default: defaultPorts,
    help: 'the port of each API; 0 picks a free one',
  },
  ...Object.fromEntries(
    apiNames.map((api) => [
      `${api}-port`,
      {
        type: 'string' as const,
        value: 'N',
        default: String(apiProfiles[api].defaultPort),
        help: `the ${api} API's port`,
      },
    ]),
  ),
  port: { type: 'string', value: 'N', help: 'the port of the one API served' },
  host: { type: 'string', value: 'HOST', default: '127.0.0.1', help: 'the address every API listens on' },
  examples: { type: 'boolean', help: 'answer from the spec examples only, keeping no state' },
  sandbox: { type: 'boolean', help: 'answer from stateful sandbox malls (the default)' },
  store: {
    type: 'string',
    value: 'STORE',
    default: 'memory',
    help: 'where the malls live: memory, or a postgres://USER:PASSWORD@HOST:PORT/DB URL that replicas share (schema migrated at start)',
  },
  'data-dir': {
    type: 'string',
    value: 'DIR',
    default: 'in memory',
    help: 'keep the malls in SQLite in DIR across restarts',
  },
  seed: {
    type: 'string',
    value: 'N',
    default: '1',
    help: 'the seed of the sample data new malls start with',
  },
  shops: { type: 'string', value: 'N', default: '1', help: 'shops per mall (1 to 99)' },
  'global-edition': { type: 'boolean', help: 'malls are global-edition malls' },
  'age-verification': { type: 'boolean', help: 'malls verify buyers’ age' },
  fixtures: {
    type: 'string',
    value: 'DIR',
    help: 'register each DIR/<name>.json as the fixture <name> a reset can load',
  },
  'webhook-url': {
    type: 'string',
    value: 'URL',
    help: 'POST every mall’s events to URL (a loopback or private address unless --webhook-any-host)',
  },
  'webhook-key': {
    type: 'string',
    value: 'KEY',
    help: 'the webhook key sent with each event as X-API-Key',
  },
  'webhook-any-host': {
    type: 'boolean',
    help: 'events may go to any host, not only this machine and private networks',
  },
  redis: {
    type: 'string',
    value: 'URL',
    default: 'in this process',
    help: 'keep tokens, codes, buckets, journals, faults, clocks and the mall roster in Redis at URL (redis://…), shared by every replica',
  },
  'redis-prefix': {
    type: 'string',
    value: 'P',
    default: 'mall-api-mock:',
    help: 'the prefix of every Redis key (one per deployment)',
  },
  'max-malls': {
    type: 'string',
    value: 'N',
    default: String(defaultMallLimits.maxMalls),
    help: 'malls kept; one more drops the least recently used',
  },
  'mall-idle-minutes': {
    type: 'string',
    value: 'N',
    default: String(defaultMallLimits.idleMs / 60_000),
    help: 'a mall unused this long is dropped (0: never)',
  },
  'journal-entries': {
    type: 'string',
    value: 'N',
    default: String(defaultJournalLimits.entries),
    help: 'request journal entries kept per mall',
  },
  'journal-mall-mb': {
    type: 'string',
    value: 'N',
    default: String(defaultJournalLimits.mallBytes / mib),
    help: 'request journal MiB kept per mall',
  },
  'journal-mb': {
    type: 'string',
    value: 'N',
    default: String(defaultJournalLimits.bytes / mib),
    help: 'request journal MiB kept over every mall',
  },
  'control-token': {
    type: 'string',
    value: 'T',
    help: 'the control API (/__mock/) requires T in X-Mock-Control-Token',
  },
  'control-remote': { type: 'boolean', help: 'the control API answers callers off the loopback interface' },
  'public-host': {
    type: 'string',
    value: 'NAMES',
    help: 'comma-separated public host names the control API and OAuth endpoints accept in Host (loopback and *.localhost always)',
  },
  'allowed-origin': {
    type: 'string',
    value: 'ORIGINS',
    default: defaultControlOrigins.join(','),
    help: 'comma-separated browser origins the control API accepts (others: 403)',
  },
  'trust-proxy': {
    type: 'string',
    value: 'LIST',
    help: 'comma-separated proxies (addresses, CIDRs such as 10.0.0.0/8, or loopback) whose X-Forwarded-For is believed: a rate limit counts the right-most hop that is not one of them (none by default: the header is ignored)',
  },
  'max-body-bytes': {
    type: 'string',
    value: 'N',
    default: String(defaultApiBodyLimit),
    help: 'largest API request body; a larger one is a 413, never read',
  },
  'max-control-body-bytes': {
    type: 'string',
    value: 'N',
    default: String(defaultControlBodyLimit),
    help: 'largest control API request body (fixtures, snapshots); a larger one is a 413',
  },
  'rate-limit': {
    type: 'string',
    value: 'on|off',
    default: 'on',
    help: 'off: no call is counted or refused, answers keep the limit headers of a first call (load tests only, never in front of testers)',
  },
  'log-format': {
    type: 'string',
    value: 'text|json',
    default: 'text',
    help: 'one line per request and per error; json: one JSON object each',
  },
  quiet: { type: 'boolean', help: 'no line per request' },
  'shutdown-timeout': {
    type: 'string',
    value: 'SECONDS',
    default: '10',
    help: 'on SIGTERM or SIGINT, how long requests in flight may finish',
  },
  workers: {
    type: 'string',
    value: 'N',
    default: '1',
    help: 'worker processes serving the same ports (more than 1 needs --store postgres://… and --redis)',
  },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-mock [api ...] [options]
       mall-api-mock proxy --api A --target URL [--port N] [--record DIR]   (the validating proxy; proxy --help)
       mall-api-mock coverage --url URL --mall ID [--min-operations 80%]   (API coverage of a run; coverage --help)
Serves the mock ${apiNames.join(', ')} APIs (default: all, each on its own port) from one process
(or from --workers N processes sharing the ports).
${healthPaths.live} (live) and ${healthPaths.ready} (ready) answer on every port, without credentials.

Options (each also from the environment variable in brackets):
${optionHelp(options, envPrefix)}`;

type Values = ReturnType<typeof readOptions<typeof options>>['values'];

/** An integer option within bounds (its default in the table when not given), or a UsageError naming it. */
function integer(values: Values, name: keyof typeof options, min: number, max: number): number {
  const given = values[name];
  const text = typeof given === 'string' ? given : ((options[name] as CliOption).default ?? '');
  const value = Number(text);
  if (!(/^\d+$/.test(text.trim()) && value >= min && value <= max))
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${text}`);
  return value;
}

/** The default receiver of the malls' events (`--webhook-url`, `--webhook-key`), checked like a registered one. */
function eventsOf(values: Values) {
  const url = values['webhook-url'];
  if (url === undefined) return {};
  const anyTarget = values['webhook-any-host'] === true;
  const problem = receiverTargetProblem(url, anyTarget);
  if (problem) throw new UsageError(`--webhook-url ${problem}`);
  return { events: { receiver: { url, key: values['webhook-key'] }, anyTarget } };
}

/** Where the sandbox keeps its malls: `--store` (memory or a PostgreSQL URL) or `--data-dir`. */
function storeOf(values: Values): 'memory' | { dataDir: string } | { postgres: string } {
  const store = values.store ?? 'memory';
  const dataDir = values['data-dir'];
  if (store === 'memory') return dataDir === undefined ? 'memory' : { dataDir };
  if (!isPostgresUrl(store)) throw new UsageError('--store must be memory or a postgres:// URL');
  if (dataDir !== undefined) throw new UsageError('--store and --data-dir exclude each other');
  return { postgres: store };
}

/** Where the malls are, for the start line (a database URL without its credentials). */
function storeName(store: ReturnType<typeof storeOf>): string {
  if (store === 'memory') return 'in memory';
  if ('dataDir' in store) return `in ${store.dataDir}`;
  const url = new URL(store.postgres);
  return `in PostgreSQL at ${url.host}${url.pathname}`;
}

/** A comma-separated option as a list (undefined when not given). */
const listOf = (text: string | undefined): string[] | undefined =>
  text?.split(',').flatMap((item) => (item.trim() === '' ? [] : [item.trim()]));

/** The trusted proxies of `--trust-proxy` (undefined when not given); a UsageError names an entry that is no address. */
function trustedProxiesOf(values: Values): string[] | undefined {
  const proxies = listOf(values['trust-proxy']);
  try {
    clientAddressOf(proxies);
  } catch (error) {
    throw new UsageError(`--trust-proxy: ${error instanceof Error ? error.message : String(error)}`);
  }
  return proxies;
}

/** The APIs to serve: named as arguments, else by --apis, else all. */
function apisOf(values: Values, positionals: readonly string[]): ApiName[] {
  const named =
    positionals.length > 0 ? positionals : (values.apis?.split(',').map((api) => api.trim()) ?? []);
  const unknown = named.filter((name) => !(apiNames as string[]).includes(name));
  if (unknown.length > 0)
    throw new UsageError(`unknown API: ${unknown.join(', ')} (APIs: ${apiNames.join(', ')})`);
  return named.length > 0 ? [...new Set(named as ApiName[])] : apiNames;
}

/** The port of each API: --ports, then the per-API flags, then --port for a single API. */
function portsOf(values: Values, apis: readonly ApiName[]): Partial<Record<ApiName, number>> {
  const ports: Partial<Record<ApiName, number>> = {};
  const port = (flag: string, text: string) => {
    const value = Number(text);
    if (!(/^\d+$/.test(text.trim()) && value < 65536))
      throw new UsageError(`${flag} must be a TCP port number, got ${text}`);
    return value;
  };
  for (const pair of values.ports?.split(',').filter((part) => part.trim() !== '') ?? []) {
    const [api = '', text = ''] = pair.split('=').map((part) => part.trim());
    if (!(apiNames as string[]).includes(api))
      throw new UsageError(`--ports names an unknown API: ${api} (write API=N, e.g. ${defaultPorts})`);
    ports[api as ApiName] = port(`--ports ${api}`, text);
  }
  for (const api of apiNames) {
    const text = values[`${api}-port` as keyof Values];
    if (typeof text === 'string') ports[api] = port(`--${api}-port`, text);
  }
  if (values.port !== undefined) {
    if (apis.length !== 1 || !apis[0]) throw new UsageError('--port needs exactly one API');
    ports[apis[0]] = port('--port', values.port);
  }
  const taken = new Map<number, ApiName>();
  for (const api of apis) {
    const chosen = ports[api] ?? apiProfiles[api].defaultPort;
    const other = taken.get(chosen);
    if (chosen !== 0 && other)
      throw new UsageError(`the ${other} and ${api} APIs cannot share port ${chosen}`);
    taken.set(chosen, api);
  }
  return ports;
}

/** The named fixtures of a directory: each `<name>.json` file is the fixture `<name>`. */
function fixturesIn(dir: string): Record<string, unknown> {
  const fixtures: Record<string, unknown> = {};
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    try {
      fixtures[basename(file, '.json')] = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      throw new Error(
        `the fixture ${join(dir, file)} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return fixtures;
}

/** What to serve and how, from the options; throws a UsageError on a mistake. */
function settingsOf(values: Values, positionals: readonly string[]) {
  const apis = apisOf(values, positionals);
  const ports = portsOf(values, apis);
  const format = values['log-format'] ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--log-format must be text or json, got ${format}`);
  const rateLimit = values['rate-limit'] ?? 'on';
  if (rateLimit !== 'on' && rateLimit !== 'off')
    throw new UsageError(`--rate-limit must be on or off, got ${rateLimit}`);
  if (values.examples && values.sandbox) throw new UsageError('--examples and --sandbox exclude each other');
  const sandboxOnly = [
    'store',
    'data-dir',
    'seed',
    'shops',
    'global-edition',
    'age-verification',
    'fixtures',
  ] as const;
  if (values.examples && sandboxOnly.some((name) => values[name] !== undefined && values[name] !== false))
    throw new UsageError(`--${sandboxOnly.join(', --')} need the sandbox (drop --examples)`);
  const shops = integer(values, 'shops', 1, 99);
  const seed = integer(values, 'seed', 0, Number.MAX_SAFE_INTEGER);
  const mall = {
    globalEdition: values['global-edition'] === true,
    ageVerification: values['age-verification'] === true,
    shops,
  };
  const store = storeOf(values);
  const fixtures = values.fixtures === undefined ? undefined : fixturesIn(values.fixtures);
  const serve: ServeManyOptions = {
    apis,
    host: values.host ?? '127.0.0.1',
    ports,
    publicHosts: listOf(values['public-host']),
    maxBodyBytes: integer(values, 'max-body-bytes', 1, 2 ** 31),
    trustProxy: trustedProxiesOf(values),
    logFormat: format,
    rateLimit,
    graceMs: integer(values, 'shutdown-timeout', 0, 3_600) * 1000,
    sandbox: values.examples ? undefined : { store, seed, mall, fixtures },
    ...eventsOf(values),
    redis: values.redis === undefined ? undefined : { url: values.redis, prefix: values['redis-prefix'] },
    mallLimits: {
      maxMalls: integer(values, 'max-malls', 1, 1_000_000),
      idleMs: integer(values, 'mall-idle-minutes', 0, 525_600) * 60_000,
    },
    journalLimits: {
      entries: integer(values, 'journal-entries', 1, 1_000_000),
      mallBytes: integer(values, 'journal-mall-mb', 1, 65_536) * mib,
      bytes: integer(values, 'journal-mb', 1, 65_536) * mib,
    },
    control: {
      token: values['control-token'],
      allowRemote: values['control-remote'] === true,
      allowedOrigins: listOf(values['allowed-origin']),
      maxBodyBytes: integer(values, 'max-control-body-bytes', 1, 2 ** 31),
    },
  };
  const mode = values.examples
    ? 'example mode: answers come from the spec examples; nothing is stored'
    : `sandbox mode: data ${storeName(store)}${values.redis === undefined ? '' : ', shared state in Redis'}, seed ${seed}${shops > 1 ? `, ${shops} shops` : ''}${mall.globalEdition ? ', global edition' : ''}${mall.ageVerification ? ', age verification on' : ''}`;
  return { serve, format: format as LogFormat, mode };
}

async function main(): Promise<void> {
  if (subcommand === 'proxy')
    return (await import('./proxy/proxy-cli.js')).runProxyCli(process.argv.slice(3));
  if (subcommand === 'coverage')
    return (await import('./qa/coverage-cli.js')).runCoverageCli(process.argv.slice(3));
  const { values, positionals } = readOptions(options, process.argv.slice(2), process.env, envPrefix);
  if (printedHelpOrVersion(values, usage, new URL('../package.json', import.meta.url))) return;
  const { serve, format, mode } = settingsOf(values, positionals);
  const say = (message: string, fields?: Record<string, unknown>) =>
    process.stdout.write(`${messageLine(format, message, fields)}\n`);
  const workers = integer(values, 'workers', 1, 256);
  // The store options may be missing from this build: the rule reads whatever was parsed.
  const refusal = workersRefusal(workers, values as Readonly<Record<string, unknown>>);
  if (refusal) throw new UsageError(refusal);
  if (workers > 1 && cluster.isPrimary) {
    const supervisor = superviseWorkers({ cluster, workers, say });
    say(`supervising ${workers} workers`, { workers });
    process.once('SIGINT', () => supervisor.shutdown('SIGINT'));
    process.once('SIGTERM', () => supervisor.shutdown('SIGTERM'));
    return;
  }
  const log = values.quiet ? undefined : (line: string) => process.stdout.write(`${line}\n`);
  // Handle the signals before anything starts, so a stop during start-up (seeding, say) is clean too.
  // A worker may get the signal twice (from the terminal and from its primary): the first one stops it.
  let served: Awaited<ReturnType<typeof startMockServers>> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping (requests in flight may finish)`);
    await served?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  // The servers are loaded only now: help, version, usage mistakes and the subcommands start without them.
  const servers = await import('./server/mock-server.js');
  const sandbox = serve.sandbox && { ...serve.sandbox, log: (message: string) => say(message) };
  const start = (ports = serve.ports) => servers.startMockServers({ ...serve, ports, sandbox, log });
  // Shared stores may come up after this replica (a deploy, a restart): wait for them in standby.
  const stores = [values.store, values.redis].filter(
    (url): url is string =>
      typeof url === 'string' && (isPostgresUrl(url) || /^rediss?:\/\//i.test(url.trim())),
  );
  served =
    stores.length > 0
      ? await startWhenStoresAnswer({
          stores,
          apis: serve.apis ?? apiNames,
          host: serve.host ?? '127.0.0.1',
          ports: serve.ports ?? {},
          start,
          say,
        })
      : await start();
  say(mode);
  if (serve.rateLimit === 'off')
    say('rate limits off: no call is counted or refused (load testing only)', { rateLimit: 'off' });
  say(
    `control API: /__mock/ on every port (${serve.control?.allowRemote ? 'any caller' : 'loopback only'}${serve.control?.token === undefined ? '' : ', token required'})`,
  );
  for (const mock of served.mocks)
    say(`mock ${mock.api} API listening on ${mock.url}`, { api: mock.api, url: mock.url });
  // The demo credentials are public (README); a JSON log carries no client secret, so only text shows them.
  if (format === 'text' && serve.apis?.includes('collection')) {
    const [demo] = demoCollectionClients;
    say(`collection demo credentials: ${demo.clientId}:${demo.clientSecret}`);
  }
  if (format === 'text' && serve.apis?.some((api) => apiProfiles[api].auth === 'bearer'))
    say(
      `OAuth demo app: client_id ${demoOAuthClient.clientId}, client_secret ${demoOAuthClient.clientSecret}`,
    );
  say('ready', { urls: Object.fromEntries(served.mocks.map((mock) => [mock.api, mock.url])) });
}

const subcommand =
  process.argv[2] === 'proxy' || process.argv[2] === 'coverage' ? process.argv[2] : undefined;
runCommand(subcommand ? `mall-api-mock ${subcommand}` : 'mall-api-mock', main);
