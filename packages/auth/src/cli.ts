#!/usr/bin/env node
// `mall-api-auth`: developer helpers for the OAuth flow.
//   mall-api-auth login --mall <id> --client-id <id> --scope a,b [--base-url URL] [--store DIR] [--port N]
// The client secret comes from MALL_API_CLIENT_SECRET (or --client-secret, which other users of the
// machine can see in the process list). Tokens go to a file store (one 0600 file per mall) and are
// never printed.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFileTokenStore } from './file-token-store.js';
import { loginWithLoopback } from './login-flow.js';

const usage = `Usage: mall-api-auth login --mall <mall_id> --client-id <id> --scope <scope,scope>
       [--base-url https://<mall>.cafe24api.com] [--store ~/.mall-api/tokens] [--port 0]
The client secret is read from MALL_API_CLIENT_SECRET (or --client-secret).`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      mall: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      scope: { type: 'string' },
      'base-url': { type: 'string' },
      store: { type: 'string' },
      port: { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals[0] !== 'login') {
    process.stdout.write(`${usage}\n`);
    if (!values.help) process.exitCode = 1;
    return;
  }
  const mallId = values.mall;
  const clientId = values['client-id'];
  const clientSecret = values['client-secret'] ?? process.env.MALL_API_CLIENT_SECRET;
  if (!mallId || !clientId || !clientSecret || !values.scope) {
    throw new Error(`--mall, --client-id, --scope and a client secret are required\n${usage}`);
  }
  const directory = values.store ?? join(homedir(), '.mall-api', 'tokens');
  const summary = await loginWithLoopback({
    mallId,
    mallBaseUrl: values['base-url'] ?? `https://${mallId}.cafe24api.com`,
    clientId,
    clientSecret,
    scopes: values.scope.split(',').map((scope) => scope.trim()),
    store: createFileTokenStore({ directory }),
    port: Number(values.port),
    presentAuthorizeUrl: (url) =>
      process.stdout.write(`Open this URL in a browser and approve the app:\n${url}\n`),
  });
  process.stdout.write(
    `Logged in to ${summary.mallId} as ${summary.userId} with ${summary.scopes.join(', ')}.\n` +
      `Tokens stored in ${directory} (access token until ${summary.accessTokenExpiresAt.toISOString()}, ` +
      `refresh token until ${summary.refreshTokenExpiresAt.toISOString()}).\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`mall-api-auth: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
