// The one convention of the mall-api commands (`mall-api-mock`, `mall-api-auth`,
// `mall-api-contract`): a table of options (type, default, help line) read from the arguments by
// node:util's parseArgs and, where the command has an environment prefix, from one variable per
// option (`--data-dir` ← `MALL_API_MOCK_DATA_DIR`); `--help` and `--version` on every command; an
// unknown option named with the nearest known one ("did you mean --port?"); a usage mistake exits 2
// with its message and where the help is, any other failure exits 1 with its message, never a stack
// trace. Here because every command depends on this package. Not here: what any command does.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** One option of a command. */
export interface CliOption {
  readonly type: 'string' | 'boolean';
  /** What the value is, in the help (`N`, `DIR`, …); strings only. */
  readonly value?: string;
  /** The default, as the help shows it (the command applies it). */
  readonly default?: string;
  readonly help: string;
  readonly short?: string;
  /** Read from the arguments only (`--help`, `--version`). */
  readonly argumentOnly?: boolean;
}

/** `--help` and `--version`, which every command takes. */
export const standardOptions = {
  help: { type: 'boolean', short: 'h', help: 'print this help', argumentOnly: true },
  version: { type: 'boolean', help: 'print the version', argumentOnly: true },
} as const satisfies Record<string, CliOption>;

/** A mistake in how the command was called: reported with where the help is, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The environment variable of an option: the prefix and its name in upper snake case. */
export const envName = (prefix: string, option: string): string =>
  `${prefix}${option.toUpperCase().replaceAll('-', '_')}`;

const truthy = new Set(['1', 'true', 'yes', 'on']);
const falsy = new Set(['', '0', 'false', 'no', 'off']);

/** The values of a table's options. */
export type CliValues<T extends Record<string, CliOption>> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string;
};

/** How many single-character edits (a swap of two neighbours counting as one) turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] ?? [];
      row[j] = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  return at(a.length, b.length);
}

/** The known option nearest to `given` (a typo or a prefix of it), if one is near enough. */
export function nearestOption(given: string, known: readonly string[]): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0] ?? '';
  const ranked = known
    .map((option) => ({
      option,
      distance: option.startsWith(name) && name.length >= 2 ? 0 : editDistance(name, option),
    }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(1, Math.floor(name.length / 3)) ? best.option : undefined;
}

/** parseArgs' error as the command's usage error, naming an unknown option's nearest known one. */
function usageErrorOf(error: unknown, known: readonly string[]): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const nearest = nearestOption(unknown, known);
    return new UsageError(`unknown option ${unknown}${nearest ? ` (did you mean --${nearest}?)` : ''}`);
  }
  const unexpected = /Unexpected argument '([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && unexpected)
    return new UsageError(`unexpected argument ${unexpected}`);
  return new UsageError(message.split('. ')[0] ?? message);
}

/**
 * Reads `argv`, then for each option not given there its variable in `env` when the command has an
 * environment `prefix`; throws a UsageError on an unknown option, a missing value or a bad boolean.
 */
export function readOptions<T extends Record<string, CliOption>>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  prefix?: string,
  { allowPositionals = true }: { allowPositionals?: boolean } = {},
): { values: CliValues<T>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals,
      strict: true,
      options: Object.fromEntries(
        Object.entries(table).map(([name, option]) => [
          name,
          { type: option.type, ...(option.short ? { short: option.short } : {}) },
        ]),
      ),
    });
  } catch (error) {
    throw usageErrorOf(error, Object.keys(table));
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, option] of Object.entries(table)) {
    const given = parsed.values[name];
    if (given !== undefined) {
      values[name] = Array.isArray(given) ? given.at(-1) : given;
      continue;
    }
    if (prefix === undefined || option.argumentOnly) continue;
    const variable = envName(prefix, name);
    const fromEnv = env[variable];
    if (fromEnv === undefined) continue;
    if (option.type === 'string') values[name] = fromEnv;
    else if (truthy.has(fromEnv.toLowerCase())) values[name] = true;
    else if (falsy.has(fromEnv.toLowerCase())) values[name] = false;
    else throw new UsageError(`${variable} must be true or false, got ${fromEnv}`);
  }
  return { values: values as CliValues<T>, positionals: parsed.positionals };
}

/** The option lines of the help: flag, help line, default and (with a prefix) environment variable. */
export function optionHelp(table: Readonly<Record<string, CliOption>>, prefix?: string): string {
  const rows = Object.entries(table).map(([name, option]) => [
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.value ? ` ${option.value}` : ''}`,
    `${option.help}${option.default === undefined ? '' : ` (default: ${option.default})`}${option.argumentOnly || prefix === undefined ? '' : ` [${envName(prefix, name)}]`}`,
  ]);
  const width = Math.max(...rows.map(([flag]) => flag?.length ?? 0)) + 2;
  return rows.map(([flag = '', text]) => `  ${flag.padEnd(width)}${text}`).join('\n');
}

/** The `version` of the package.json at `url` (a command's `new URL('../package.json', import.meta.url)`). */
const packageVersion = (url: URL): string =>
  (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;

/**
 * Prints the command's help (`--help`) or the version of its package.json at `packageJson`
 * (`--version`) on stdout, when either was given.
 * @returns whether it printed: the command then does nothing else.
 */
export function printedHelpOrVersion(
  values: { readonly help?: boolean | undefined; readonly version?: boolean | undefined },
  usage: string,
  packageJson: URL,
): boolean {
  if (!values.help && !values.version) return false;
  process.stdout.write(`${values.help ? usage : packageVersion(packageJson)}\n`);
  return true;
}

/**
 * Runs a command's `main` under the convention: a UsageError prints `<command>: <message>` and where
 * the help is, and exits 2; any other error prints `<command>: <message>` and exits 1. `command`
 * names the command as typed (`mall-api-mock proxy`), for the help hint.
 */
export function runCommand(command: string, main: () => Promise<void>): void {
  const name = command.split(' ')[0] ?? command;
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${message}\nRun ${command} --help for every option.\n`);
      process.exit(2);
    }
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(1);
  });
}
