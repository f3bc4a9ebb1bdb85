// The target and credential flags both commands share (`mall-api-contract` and its `conformance`
// subcommand), and their `--mock-clock`: their option table, and the target options they give, each flag falling
// back to its CONTRACT_* environment variable.
import type { CliOption } from '@mall-api/auth/command-line';
import { apiNames } from '@mall-api/spec-model';
import { type TargetOptions, targetOptionsFromEnv } from './targets.js';

/** The target and credential options (help lines as `--help` shows them). */
export const targetFlags = {
  api: {
    type: 'string',
    value: 'NAME[,NAME]',
    help: `${apiNames.join(', ')} (default: all; one with --base-url)`,
  },
  'base-url': { type: 'string', value: 'URL', help: 'the server to test (default: our mock, started here)' },
  'client-id': {
    type: 'string',
    value: 'ID',
    help: 'collection: the client; admin, analytics: a registered app, whose tokens the authorization-code flow gets',
  },
  'client-secret': { type: 'string', value: 'SECRET', help: "the client's or app's secret" },
  'access-token': {
    type: 'string',
    value: 'TOKEN',
    help: 'admin, analytics: a token to use instead of the flow',
  },
  'forbidden-access-token': {
    type: 'string',
    value: 'TOKEN',
    help: "a token lacking the API's scopes, for the 403 cases",
  },
  'forbidden-client-id': {
    type: 'string',
    value: 'ID',
    help: 'collection: a client limited to some scopes, for the scope cases',
  },
  'forbidden-client-secret': { type: 'string', value: 'SECRET', help: "that limited client's secret" },
  'auth-base-url': { type: 'string', value: 'URL', help: "the mall's OAuth server (default: --base-url)" },
  'mall-id': {
    type: 'string',
    value: 'MALL',
    help: "analytics: the credential's mall, sent as the mall whose statistics are read",
  },
  'redirect-uri': { type: 'string', value: 'URI', help: 'a redirect URI registered for the app' },
} as const satisfies Record<string, CliOption>;

/** `--mock-clock`: waiting moves the clock of our mock's mall at the base URL (mock-clock.ts). */
export const mockClockFlag = {
  type: 'boolean',
  help: 'the server is one mall of our mock (…/__mall/<mall>): move its clock instead of waiting',
} as const satisfies CliOption;

/** The values read for {@link targetFlags}. */
export type TargetFlagValues = { readonly [flag in keyof typeof targetFlags]?: string | undefined };

/** The target options of the flags given, else of the CONTRACT_* variables. */
export function targetOptionsFrom(values: TargetFlagValues, env: NodeJS.ProcessEnv): TargetOptions {
  const fromEnv = targetOptionsFromEnv(env);
  return {
    baseUrl: values['base-url'] ?? fromEnv.baseUrl,
    clientId: values['client-id'] ?? fromEnv.clientId,
    clientSecret: values['client-secret'] ?? fromEnv.clientSecret,
    accessToken: values['access-token'] ?? fromEnv.accessToken,
    forbiddenAccessToken: values['forbidden-access-token'] ?? fromEnv.forbiddenAccessToken,
    forbiddenClientId: values['forbidden-client-id'] ?? fromEnv.forbiddenClientId,
    forbiddenClientSecret: values['forbidden-client-secret'] ?? fromEnv.forbiddenClientSecret,
    authBaseUrl: values['auth-base-url'] ?? fromEnv.authBaseUrl,
    redirectUri: values['redirect-uri'] ?? fromEnv.redirectUri,
    mallId: values['mall-id'] ?? fromEnv.mallId,
    sandbox: fromEnv.sandbox,
  };
}
