import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  nearestOption,
  optionHelp,
  printedHelpOrVersion,
  readOptions,
  standardOptions,
  UsageError,
} from './command-line.js';

const table = {
  port: { type: 'string', value: 'N', default: '0', help: 'the port' },
  'data-dir': { type: 'string', value: 'DIR', help: 'where data lives' },
  quiet: { type: 'boolean', help: 'no log' },
  ...standardOptions,
} as const;

describe('nearestOption', () => {
  it('names the known option one typo away, or the one a prefix starts', () => {
    const known = Object.keys(table);
    expect(nearestOption('--prot', known)).toBe('port');
    expect(nearestOption('--data-dri', known)).toBe('data-dir');
    expect(nearestOption('--data', known)).toBe('data-dir');
    expect(nearestOption('--versoin=1', known)).toBe('version');
  });

  it('names none when nothing is near', () => {
    expect(nearestOption('--colour', Object.keys(table))).toBeUndefined();
  });
});

describe('readOptions', () => {
  it('reads the arguments, then the environment under the prefix, never for --help', () => {
    const { values, positionals } = readOptions(
      table,
      ['admin', '--port', '5000'],
      { X_DATA_DIR: '/tmp/d', X_QUIET: 'yes', X_HELP: '1' },
      'X_',
    );
    expect(values).toEqual({ port: '5000', 'data-dir': '/tmp/d', quiet: true });
    expect(positionals).toEqual(['admin']);
  });

  it('reads no environment without a prefix', () => {
    expect(readOptions(table, [], { X_PORT: '1' }).values).toEqual({});
  });

  it('refuses an unknown option as a UsageError that suggests the nearest one', () => {
    expect(() => readOptions(table, ['--prot', '1'])).toThrow(
      new UsageError('unknown option --prot (did you mean --port?)'),
    );
    expect(() => readOptions(table, ['--colour'])).toThrow(new UsageError('unknown option --colour'));
  });

  it('refuses a positional argument where the command takes none, and a bad boolean variable', () => {
    expect(() => readOptions(table, ['extra'], {}, undefined, { allowPositionals: false })).toThrow(
      new UsageError('unexpected argument extra'),
    );
    expect(() => readOptions(table, [], { X_QUIET: 'maybe' }, 'X_')).toThrow(
      new UsageError('X_QUIET must be true or false, got maybe'),
    );
  });
});

describe('optionHelp', () => {
  it('lists each flag with its value, help, default and variable', () => {
    const help = optionHelp(table, 'X_');
    expect(help).toMatch(/--port N\s+the port \(default: 0\) \[X_PORT\]/);
    expect(help).toMatch(/-h, --help\s+print this help\n/);
    expect(optionHelp(table)).not.toContain('[X_');
  });
});

describe('printedHelpOrVersion', () => {
  const packageJson = new URL('../package.json', import.meta.url);
  const printed = (values: { help?: boolean; version?: boolean }) => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      lines.push(String(text));
      return true;
    });
    try {
      return { answered: printedHelpOrVersion(values, 'Usage: tool [options]', packageJson), lines };
    } finally {
      write.mockRestore();
    }
  };

  it('prints the usage for --help and the package version for --version, and says it did', () => {
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
    expect(printed({ help: true })).toEqual({ answered: true, lines: ['Usage: tool [options]\n'] });
    expect(printed({ version: true })).toEqual({ answered: true, lines: [`${version}\n`] });
  });

  it('prints nothing and says so when neither was given', () => {
    expect(printed({})).toEqual({ answered: false, lines: [] });
  });
});
