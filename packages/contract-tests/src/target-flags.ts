// The target and credential flags both commands share (`mall-api-contract` and its `conformance`
// subcommand): their parseArgs definitions, and the target options they give, each flag falling
// back to its CONTRACT_* environment variable.
import { type TargetOptions, targetOptionsFromEnv } from './targets.js';

/** The parseArgs options of the target and credential flags. */
export const targetFlags = {
  api: { type: 'string' },
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'access-token': { type: 'string' },
  'forbidden-access-token': { type: 'string' },
  'forbidden-client-id': { type: 'string' },
  'forbidden-client-secret': { type: 'string' },
  'auth-base-url': { type: 'string' },
  'redirect-uri': { type: 'string' },
} as const;

/** The values parseArgs gives for {@link targetFlags}. */
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
    sandbox: fromEnv.sandbox,
  };
}
