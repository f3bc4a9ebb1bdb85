// What both commands (`mall-api-contract` and its `conformance` subcommand) share: the target and
// credential flags and `--mock-clock`, the target options they give (each flag falling back to its
// CONTRACT_* environment variable), the APIs they name, and a failure to reach a target reported as
// a usage error.
import { type CliOption, UsageError } from '@mall-api/auth/command-line';
import { type ApiName, apiNames } from '@mall-api/spec-model';
import { isApiName } from './api-facts.js';
import { type TargetOptions, targetOptionFlags, targetOptionsFromEnv } from './targets.js';

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
  const options: Record<string, string | boolean | undefined> = { ...targetOptionsFromEnv(env) };
  for (const [option, flag] of Object.entries(targetOptionFlags))
    options[option] = values[flag] ?? options[option];
  return options;
}

/** The APIs --api (else CONTRACT_API) names, all by default; one only with a base URL. */
export function apisFrom(api: string | undefined, baseUrl: string | undefined): ApiName[] {
  const apis = (api ?? process.env.CONTRACT_API ?? apiNames.join(',')).split(',').filter(Boolean);
  const unknown = apis.filter((name) => !isApiName(name));
  if (unknown.length > 0) throw new UsageError(`unknown API ${unknown.join(', ')}`);
  if (baseUrl && apis.length !== 1) throw new UsageError('with --base-url, name one API with --api');
  return apis.filter(isApiName);
}

/** What `work` gives; its failure (a target that cannot be reached or prepared) as a usage error. */
export async function asUsage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
