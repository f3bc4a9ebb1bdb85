// `mall-api-mock proxy`: the validating proxy from the command line.
//   mall-api-mock proxy --api admin --target https://yourmall.cafe24api.com [--port N] [--host H]
//                       [--record DIR] [--quiet] [--control-token T] [--control-remote]
// Prints its URL, logs one line per request and one per violation (never credentials), and stops
// cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { loadSpec } from '@mall-api/spec-model';
import { type ApiName, apiProfiles } from '../api-profiles.js';
import { createFixtureRecorder } from './fixture-recorder.js';
import { startValidatingProxy } from './validating-proxy.js';

const usage = `Usage: mall-api-mock proxy --api NAME --target URL [--port N] [--host H] [--record DIR] [--quiet] [--control-token T] [--control-remote]
APIs: ${Object.keys(apiProfiles).join(', ')}`;

/** Runs the proxy command with its arguments (those after `proxy`). */
export async function runProxyCli(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      api: { type: 'string' },
      target: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      record: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'control-token': { type: 'string' },
      'control-remote': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const api = values.api;
  if (!api || !(api in apiProfiles)) throw new Error(`--api must name one API\n${usage}`);
  if (!values.target || !/^https?:\/\//.test(values.target))
    throw new Error(`--target must be the service's http(s) URL\n${usage}`);
  const port = Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new Error(`--port must be a TCP port number, got ${values.port}`);
  const name = api as ApiName;
  const recorder =
    values.record === undefined
      ? undefined
      : await createFixtureRecorder(await loadSpec(name), values.record);
  const proxy = await startValidatingProxy({
    api: name,
    target: values.target,
    port,
    host: values.host,
    ...(recorder ? { recorder } : {}),
    ...(values.quiet ? {} : { log: (line: string) => process.stdout.write(`${line}\n`) }),
    control: {
      ...(values['control-token'] === undefined ? {} : { token: values['control-token'] }),
      allowRemote: values['control-remote'] === true,
    },
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
