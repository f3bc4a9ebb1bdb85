#!/usr/bin/env node
// `mall-api-auth`: developer helpers for the OAuth flow.
//   mall-api-auth login --mall <id> --client-id <id> --scope a,b [--base-url URL] [--store DIR] [--port N]
// The client secret comes from MALL_API_CLIENT_SECRET (or --client-secret, which other users of the
// machine can see in the process list). Tokens go to a file store (one 0600 file per mall) and are
// never printed. Options, `--help`, `--version` and exit codes follow command-line.ts.
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  runCommand,
  standardOptions,
  UsageError,
} from './command-line.js';
import { createFileTokenStore } from './file-token-store.js';
import { loginWithLoopback } from './login-flow.js';

/** Every option of `mall-api-auth login`. */
const options = {
  mall: { type: 'string', value: 'ID', help: 'the mall id' },
  'client-id': { type: 'string', value: 'ID', help: "the app's client id" },
  'client-secret': {
    type: 'string',
    value: 'SECRET',
    help: "the app's client secret (better: MALL_API_CLIENT_SECRET, unseen in the process list)",
  },
  scope: { type: 'string', value: 'A,B', help: 'the scopes to ask for' },
  'base-url': {
    type: 'string',
    value: 'URL',
    default: 'https://<mall>.cafe24api.com',
    help: "the mall's URL",
  },
  store: { type: 'string', value: 'DIR', default: '~/.mall-api/tokens', help: 'where the tokens are kept' },
  port: { type: 'string', value: 'N', default: '0', help: 'the loopback port of the redirect; 0 picks one' },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-auth login --mall <mall_id> --client-id <id> --scope <scope,scope> [options]
Runs the OAuth authorization-code flow through a loopback redirect and keeps the tokens.
The client secret is read from MALL_API_CLIENT_SECRET (or --client-secret).

Options:
${optionHelp(options)}`;

async function main(): Promise<void> {
  const { values, positionals } = readOptions(options, process.argv.slice(2));
  if (printedHelpOrVersion(values, usage, new URL('../package.json', import.meta.url))) return;
  const [command, ...rest] = positionals;
  if (command !== 'login')
    throw new UsageError(command ? `unknown command ${command}` : 'name a command: login');
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest.join(' ')}`);
  const mallId = values.mall;
  const clientId = values['client-id'];
  const clientSecret = values['client-secret'] ?? process.env.MALL_API_CLIENT_SECRET;
  if (!mallId || !clientId || !clientSecret || !values.scope)
    throw new UsageError('--mall, --client-id, --scope and a client secret are required');
  const port = Number(values.port ?? '0');
  if (!(/^\d+$/.test(values.port ?? '0') && port < 65536))
    throw new UsageError(`--port must be a TCP port number, got ${values.port}`);
  const directory = values.store ?? join(homedir(), '.mall-api', 'tokens');
  const summary = await loginWithLoopback({
    mallId,
    mallBaseUrl: values['base-url'] ?? `https://${mallId}.cafe24api.com`,
    clientId,
    clientSecret,
    scopes: values.scope.split(',').map((scope) => scope.trim()),
    store: createFileTokenStore({ directory }),
    port,
    presentAuthorizeUrl: (url) =>
      process.stdout.write(`Open this URL in a browser and approve the app:\n${url}\n`),
  });
  process.stdout.write(
    `Logged in to ${summary.mallId} as ${summary.userId} with ${summary.scopes.join(', ')}.\n` +
      `Tokens stored in ${directory} (access token until ${summary.accessTokenExpiresAt.toISOString()}, ` +
      `refresh token until ${summary.refreshTokenExpiresAt.toISOString()}).\n`,
  );
}

runCommand('mall-api-auth', main);
