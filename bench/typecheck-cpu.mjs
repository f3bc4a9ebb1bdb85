#!/usr/bin/env node
// Benchmark: the CPU of each built package's typecheck task (tsconfig.test.json: the tests and
// what else the build leaves out, src read from the build's declarations) against the same check
// with src type-checked again as source (the test config with `src` included and no reference, as
// the typecheck did before). Each program is built and checked in this process with TypeScript's
// API, alternating the two, `rounds` times (default 2); prints the CPU seconds per package and
// in all. Run after the build (the declarations must be there). Not a check: the errors are
// counted, not shown.
import { join } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const packages = [
  'admin-client',
  'analytics-client',
  'auth',
  'client-kit',
  'collection-client',
  'contract-tests',
  'mall-state',
  'mock-server',
  'rate-limit',
  'sandbox',
  'spec-model',
];
const rounds = Number(process.argv[2] ?? 2);

/**
 * The parsed tsconfig.test.json of a package; `srcAgain` adds src as source and drops the reference.
 * @param {string} directory
 * @param {boolean} srcAgain
 */
function config(directory, srcAgain) {
  const file = join(directory, 'tsconfig.test.json');
  const read = ts.readConfigFile(file, ts.sys.readFile).config;
  const json = srcAgain ? { ...read, include: [...read.include, 'src'], references: [] } : read;
  return ts.parseJsonConfigFileContent(json, ts.sys, directory, undefined, file);
}

/**
 * CPU seconds (user + system) to build and type-check one program; the number of errors.
 * @param {ts.ParsedCommandLine} parsed
 */
function check(parsed) {
  const started = process.cpuUsage();
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
  });
  const errors = ts.getPreEmitDiagnostics(program).length;
  const used = process.cpuUsage(started);
  return { seconds: (used.user + used.system) / 1e6, errors };
}

const total = { declarations: 0, srcAgain: 0 };
for (const name of packages) {
  const directory = join(root, 'packages', name);
  const seconds = { declarations: 0, srcAgain: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const srcAgain of [true, false]) {
      const { seconds: used, errors } = check(config(directory, srcAgain));
      if (errors) process.stderr.write(`${name}: ${errors} errors (srcAgain ${srcAgain})\n`);
      seconds[srcAgain ? 'srcAgain' : 'declarations'] += used / rounds;
    }
  }
  total.declarations += seconds.declarations;
  total.srcAgain += seconds.srcAgain;
  process.stdout.write(
    `${name.padEnd(18)} src again ${seconds.srcAgain.toFixed(1)} s  from declarations ${seconds.declarations.toFixed(1)} s\n`,
  );
}
process.stdout.write(
  `${'all'.padEnd(18)} src again ${total.srcAgain.toFixed(1)} s  from declarations ${total.declarations.toFixed(1)} s\n`,
);
