// `mall-api-mock proxy`: the validating proxy from the command line.
//   mall-api-mock proxy --api admin --target https://yourmall.cafe24api.com [--port N] [--record DIR]
// Options as the other commands' (each also `MALL_API_MOCK_PROXY_<NAME>`). Prints its URL, logs one
// line per request and per violation (never credentials), and stops cleanly on SIGINT/SIGTERM.

import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
import { loadSpec } from '@mall-api/spec-model';
import { type ApiName, apiProfiles } from '../identity/api-profiles.js';
import { createFixtureRecorder } from './fixture-recorder.js';
import { startValidatingProxy } from './validating-proxy.js';

/** The environment prefix of the proxy's options (the main command's is `MALL_API_MOCK_`). */
export const proxyEnvPrefix = 'MALL_API_MOCK_PROXY_';

/** Every option of `mall-api-mock proxy`. */
export const proxyOptions = {
  api: {
    type: 'string',
    value: 'NAME',
    help: `the API the target serves (${Object.keys(apiProfiles).join(', ')})`,
  },
  target: { type: 'string', value: 'URL', help: "the service's http(s) URL to forward to" },
  port: { type: 'string', value: 'N', default: '0', help: 'the port to listen on; 0 picks a free one' },
  host: { type: 'string', value: 'HOST', default: '127.0.0.1', help: 'the address to listen on' },
  record: {
    type: 'string',
    value: 'DIR',
    help: 'record the answers as a sandbox fixture in DIR (the mock loads it back with --fixtures)',
  },
  quiet: { type: 'boolean', default: 'false', help: 'no line per request' },
  'control-token': { type: 'string', value: 'TOKEN', help: 'the bearer token the control API asks for' },
  'control-remote': {
    type: 'boolean',
    default: 'false',
    help: 'let other hosts than loopback call the control API',
  },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-mock proxy --api NAME --target URL [options]
Forwards every request to the target and checks each request and answer against the API's spec.

Options (each also from the environment variable in brackets):
${optionHelp(proxyOptions, proxyEnvPrefix)}`;

/**
 * Runs the proxy command with its arguments (those after `proxy`) and environment.
 * @throws {UsageError} on a mistake in how it was called.
 */
export async function runProxyCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { values } = readOptions(proxyOptions, args, env, proxyEnvPrefix, { allowPositionals: false });
  if (printedHelpOrVersion(values, usage, new URL('../../package.json', import.meta.url))) return;
  const api = values.api;
  if (!api || !(api in apiProfiles))
    throw new UsageError(`--api must name one API (${Object.keys(apiProfiles).join(', ')})`);
  if (!values.target || !/^https?:\/\//.test(values.target))
    throw new UsageError("--target must be the service's http(s) URL");
  const portText = values.port ?? '0';
  const port = Number(portText);
  if (!(/^\d+$/.test(portText) && port < 65536))
    throw new UsageError(`--port must be a TCP port number, got ${portText}`);
  const name = api as ApiName;
  const recorder =
    values.record === undefined
      ? undefined
      : await createFixtureRecorder(await loadSpec(name), values.record);
  const proxy = await startValidatingProxy({
    api: name,
    target: values.target,
    port,
    host: values.host ?? '127.0.0.1',
    recorder,
    log: values.quiet ? undefined : (line: string) => process.stdout.write(`${line}\n`),
    control: { token: values['control-token'], allowRemote: values['control-remote'] === true },
  });
  const stop = async () => {
    await proxy.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.stdout.write(
    `validating proxy of the ${name} API listening on ${proxy.url}, forwarding to ${values.target}\n`,
  );
  if (values.record !== undefined) process.stdout.write(`recording fixtures into ${values.record}\n`);
}
