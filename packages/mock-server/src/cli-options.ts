// Reads a command's options from its arguments and, for each option not given there, from an
// environment variable (`--data-dir` ← `MALL_API_MOCK_DATA_DIR`), as one table describes them:
// type, default and help line (`--help` and `--version` are arguments only). The table also writes the full `--help`. A wrong argument is a
// UsageError (the command exits 2 with its message). node:util's parseArgs reads the arguments.
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

/** A mistake in how the command was called: reported with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The environment variable of an option: `MALL_API_MOCK_` and its name in upper snake case. */
export const envName = (prefix: string, option: string): string =>
  `${prefix}${option.toUpperCase().replaceAll('-', '_')}`;

const truthy = new Set(['1', 'true', 'yes', 'on']);
const falsy = new Set(['', '0', 'false', 'no', 'off']);

/** The values of a table's options. */
export type CliValues<T extends Record<string, CliOption>> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string;
};

/** Reads `argv` then the environment; throws a UsageError on an unknown option or a bad boolean. */
export function readOptions<T extends Record<string, CliOption>>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  prefix: string,
): { values: CliValues<T>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        Object.entries(table).map(([name, option]) => [
          name,
          { type: option.type, ...(option.short ? { short: option.short } : {}) },
        ]),
      ),
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, option] of Object.entries(table)) {
    const given = parsed.values[name];
    if (given !== undefined) {
      values[name] = Array.isArray(given) ? given.at(-1) : given;
      continue;
    }
    const variable = envName(prefix, name);
    const fromEnv = option.argumentOnly ? undefined : env[variable];
    if (fromEnv === undefined) continue;
    if (option.type === 'string') values[name] = fromEnv;
    else if (truthy.has(fromEnv.toLowerCase())) values[name] = true;
    else if (falsy.has(fromEnv.toLowerCase())) values[name] = false;
    else throw new UsageError(`${variable} must be true or false, got ${fromEnv}`);
  }
  return { values: values as CliValues<T>, positionals: parsed.positionals };
}

/** The option lines of the help: flag, environment variable, help line and default. */
export function optionHelp(table: Readonly<Record<string, CliOption>>, prefix: string): string {
  const rows = Object.entries(table).map(([name, option]) => [
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.value ? ` ${option.value}` : ''}`,
    `${option.help}${option.default === undefined ? '' : ` (default: ${option.default})`}${option.argumentOnly ? '' : ` [${envName(prefix, name)}]`}`,
  ]);
  const width = Math.max(...rows.map(([flag]) => flag?.length ?? 0)) + 2;
  return rows.map(([flag = '', text]) => `  ${flag.padEnd(width)}${text}`).join('\n');
}
