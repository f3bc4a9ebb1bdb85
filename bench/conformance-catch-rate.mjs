#!/usr/bin/env node
// Benchmark: how many deliberately broken copies of our stateful mock (the mutants of
// packages/contract-tests/src/mutants) the Dredd contract tests catch, and how many the
// conformance runner catches, in the same run and against the same mutants. First both run
// against the unbroken mock of each API involved, behind the same proxy (the baseline: a mutant
// only counts as caught by a tool that passes the unbroken mock). Prints one line per mutant and
// the two catch rates.
//   npm run build && node bench/conformance-catch-rate.mjs
import { mockTarget, runConformance, runContract } from '../packages/contract-tests/dist/index.js';
import { mutants, startMutant } from '../packages/contract-tests/dist/mutants/mutants.js';

/**
 * Runs both tools against a started target; resolves with whether each found a failure.
 * @param {import('../packages/contract-tests/dist/index.js').ConformanceOptions['api']} api
 * @param {import('../packages/contract-tests/dist/index.js').LocalTarget} target
 */
async function measure(api, target) {
  const report = await runConformance({
    api,
    baseUrl: target.baseUrl,
    credentials: target.credentials,
    sleep: target.sleep,
    spendRateLimit: true,
  });
  const contract = await runContract({
    api,
    target: await mockTarget(api, { ...target.served, sandbox: true, close: async () => {} }),
  });
  return { runner: report.failed > 0, dredd: contract.exitCode !== 0 || contract.failed > 0 };
}

const apis = [...new Set(mutants.map((mutant) => mutant.api))];
for (const api of apis) {
  // The unbroken mock behind the same proxy as the mutants, changing nothing.
  const target = await startMutant({
    name: 'unbroken',
    api,
    kind: 'shallow',
    caughtBy: '',
    proxy: () => ({}),
  });
  try {
    const found = await measure(api, target);
    process.stdout.write(
      `unbroken ${api} mock: runner ${found.runner ? 'FAILS' : 'passes'}, Dredd ${found.dredd ? 'FAILS' : 'passes'}\n`,
    );
  } finally {
    await target.close();
  }
}
const caught = { runner: 0, dredd: 0 };
for (const mutant of mutants) {
  const target = await startMutant(mutant);
  try {
    const found = await measure(mutant.api, target);
    caught.runner += found.runner ? 1 : 0;
    caught.dredd += found.dredd ? 1 : 0;
    process.stdout.write(
      `${mutant.kind.padEnd(11)} ${mutant.api.padEnd(10)} ${mutant.name}: Dredd ${found.dredd ? 'caught' : 'missed'}, runner ${found.runner ? 'caught' : 'missed'}\n`,
    );
  } finally {
    await target.close();
  }
}
process.stdout.write(
  `catch rate: Dredd ${caught.dredd}/${mutants.length}, conformance runner ${caught.runner}/${mutants.length}\n`,
);
