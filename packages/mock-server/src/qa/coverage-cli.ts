// `mall-api-mock coverage`: the API coverage of running mocks' malls, for a CI step.
//   mall-api-mock coverage --url http://127.0.0.1:4011 --mall qa1,qa2 [--api admin]
//                          [--format markdown|json|junit] [--min-operations 80%] [--control-token T]
// It prints the report the control API gives and exits 1 when a minimum was not reached (or the
// mocks refused). Options as the other commands' (each also `MALL_API_MOCK_COVERAGE_<NAME>`).

import {
  type CliOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
import { type ApiName, apiNames } from '@mall-api/spec-model';
import { type CoverageFormat, coverageFormats } from '../api-coverage/coverage-formats.js';
import { coverageMeasures } from '../api-coverage/coverage-report.js';
import { createControlClient } from './control-client.js';

/** The environment prefix of the command's options. */
export const coverageEnvPrefix = 'MALL_API_MOCK_COVERAGE_';

const minimumHelp = (what: string) => `fail (exit 1) when under this percentage of ${what} (80 or 80%)`;

/** Every option of `mall-api-mock coverage`. */
export const coverageOptions = {
  url: { type: 'string', value: 'URL', help: 'the base URL of any port of the running mocks' },
  mall: { type: 'string', value: 'IDS', help: 'the mall ids whose requests count, comma-separated' },
  api: { type: 'string', value: 'NAME', help: 'only this API (default every API served)' },
  from: {
    type: 'string',
    value: 'TIME',
    help: 'only requests received at or after this date-time (mall clock)',
  },
  to: { type: 'string', value: 'TIME', help: 'only requests received before this date-time (mall clock)' },
  format: {
    type: 'string',
    value: 'FORMAT',
    default: 'markdown',
    help: `the report's format (${coverageFormats.join(', ')})`,
  },
  'min-operations': { type: 'string', value: 'PERCENT', help: minimumHelp('operations called') },
  'min-responses': { type: 'string', value: 'PERCENT', help: minimumHelp('documented responses answered') },
  'min-rules': { type: 'string', value: 'PERCENT', help: minimumHelp('request rules that refused a call') },
  'control-token': { type: 'string', value: 'TOKEN', help: 'the control token the mocks were started with' },
  ...standardOptions,
} satisfies Record<string, CliOption>;

const usage = `Usage: mall-api-mock coverage --url URL --mall IDS [options]
Prints what the malls' requests exercised of the APIs (operations, documented responses, request
rules); exits 1 when a minimum is not reached.

Options (each also from the environment variable in brackets):
${optionHelp(coverageOptions, coverageEnvPrefix)}`;

/** A percentage as given (`80`, `80%`, `72.5%`); a UsageError names the option otherwise. */
function percentage(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim().replace(/%$/, ''));
  if (!/^\s*\d+(\.\d+)?%?\s*$/.test(text) || value > 100)
    throw new UsageError(`--${option} must be a percentage from 0 to 100, got ${text}`);
  return value;
}

/**
 * Runs `mall-api-mock coverage` with its arguments (those after `coverage`) and environment,
 * setting the exit code to 1 when a minimum was not reached.
 * @throws {UsageError} on a mistake in how it was called.
 */
export async function runCoverageCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { values } = readOptions(coverageOptions, args, env, coverageEnvPrefix, { allowPositionals: false });
  if (printedHelpOrVersion(values, usage, new URL('../../package.json', import.meta.url))) return;
  if (!values.url || !/^https?:\/\//.test(values.url))
    throw new UsageError('--url must be the mocks’ http(s) URL');
  const malls = (values.mall ?? '')
    .split(',')
    .map((mall) => mall.trim())
    .filter(Boolean);
  if (malls.length === 0) throw new UsageError('--mall must name at least one mall id');
  const api = values.api;
  if (api !== undefined && !(apiNames as readonly string[]).includes(api))
    throw new UsageError(`--api must be one of ${apiNames.join(', ')}, got ${api}`);
  const format = values.format ?? 'markdown';
  if (!(coverageFormats as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${coverageFormats.join(', ')}, got ${format}`);
  const minimum = Object.fromEntries(
    coverageMeasures.flatMap((measure) => {
      const value = percentage(`min-${measure}`, values[`min-${measure}`]);
      return value === undefined ? [] : [[measure, value]];
    }),
  );
  const request = { malls, minimum, api: api as ApiName | undefined, from: values.from, to: values.to };
  const control = createControlClient(values.url, { token: values['control-token'] });
  // The JSON report says whether it passed; the other formats are printed as the mocks wrote them.
  const report = await control.coverage(request);
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : await control.coverageDocument(request, format as Exclude<CoverageFormat, 'json'>),
  );
  if (!report.passed) process.exitCode = 1;
}
