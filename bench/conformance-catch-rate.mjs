#!/usr/bin/env node
// Benchmark: how many deliberately broken copies of our stateful mock (the mutants of
// packages/contract-tests/src/mutants) the Dredd contract tests catch, and how many the
// conformance runner catches, in the same run and against the same mutants. First both run
// against the unbroken mock of each API involved, behind the same proxy (the baseline); a tool
// catches a mutant when something fails that did not fail on the baseline (a timing-dependent 429
// transaction of Dredd's, say). Prints one line per mutant (with the kinds of the runner's checks
// that caught it), the two catch rates, and a Markdown table of the catch rates by the kind of
// check each mutant is meant for (its `caughtBy`) and API, with their sum: every figure from the one
// run.
// Given parts of mutant names, only the mutants whose name holds one of them (and the baselines of
// their APIs) run.
//   npm run build && node bench/conformance-catch-rate.mjs [name-part ...]
import {
  localRunOptions,
  mockTarget,
  runConformance,
  runContract,
} from '../packages/contract-tests/dist/index.js';
import { mutants, startMutant } from '../packages/contract-tests/dist/mutants/mutants.js';

/**
 * Runs both tools against a started target; resolves with the checks and transactions that failed.
 * @param {import('../packages/contract-tests/dist/index.js').ConformanceOptions['api']} api
 * @param {import('../packages/contract-tests/dist/index.js').LocalTarget} target
 */
async function measure(api, target) {
  const report = await runConformance(localRunOptions(api, target));
  const contract = await runContract({
    api,
    target: await mockTarget(api, { ...target.served, sandbox: true, close: async () => {} }),
  });
  const failedTransactions = contract.output.split('\n').flatMap((line) => {
    const name = /^fail: (.+?) duration:/.exec(line)?.[1];
    return name ? [name] : [];
  });
  const failed = report.results.filter((r) => r.status === 'failed');
  return {
    runner: new Set(failed.map((r) => `${r.subject} ${r.name}`)),
    kinds: new Map(failed.map((r) => [`${r.subject} ${r.name}`, r.group])),
    dredd: new Set(failedTransactions),
  };
}

/**
 * Whether `found` holds a failure the unbroken mock did not already have.
 * @param {Set<string>} found
 * @param {Set<string>} baseline
 */
const newFailure = (found, baseline) => [...found].some((name) => !baseline.has(name));

const parts = process.argv.slice(2);
const chosen = mutants.filter(
  (mutant) => parts.length === 0 || parts.some((part) => mutant.name.includes(part)),
);
const apis = [...new Set(chosen.map((mutant) => mutant.api))];
/** @type {Map<string, Awaited<ReturnType<typeof measure>>>} */
const baselines = new Map();
for (const api of apis) {
  // The unbroken mock behind the same proxy as the mutants, changing nothing.
  const target = await startMutant({
    name: 'unbroken',
    api,
    kind: 'shallow',
    caughtBy: '',
    touches: [],
    proxy: () => ({}),
  });
  try {
    const found = await measure(api, target);
    baselines.set(api, found);
    process.stdout.write(
      `unbroken ${api} mock: runner ${found.runner.size} failed checks, Dredd ${found.dredd.size} failed transactions${found.dredd.size ? ` (${[...found.dredd].join('; ').slice(0, 200)})` : ''}\n`,
    );
  } finally {
    await target.close();
  }
}
const caught = { runner: 0, dredd: 0 };
/** Per (API, kind): mutants, caught by Dredd, caught by the runner. @type {Map<string, number[]>} */
const byKind = new Map();
for (const mutant of chosen) {
  const target = await startMutant(mutant);
  try {
    const found = await measure(mutant.api, target);
    const baseline = baselines.get(mutant.api) ?? { runner: new Set(), dredd: new Set() };
    const byRunner = newFailure(found.runner, baseline.runner);
    const byDredd = newFailure(found.dredd, baseline.dredd);
    caught.runner += byRunner ? 1 : 0;
    caught.dredd += byDredd ? 1 : 0;
    const [count = 0, dredd = 0, runner = 0] = byKind.get(`${mutant.api} ${mutant.caughtBy}`) ?? [];
    byKind.set(`${mutant.api} ${mutant.caughtBy}`, [
      count + 1,
      dredd + (byDredd ? 1 : 0),
      runner + (byRunner ? 1 : 0),
    ]);
    const kinds = [...found.runner]
      .filter((name) => !baseline.runner.has(name))
      .map((name) => found.kinds.get(name));
    process.stdout.write(
      `${mutant.kind.padEnd(11)} ${mutant.api.padEnd(10)} ${mutant.name}: Dredd ${byDredd ? 'caught' : 'missed'}, runner ${byRunner ? `caught (${[...new Set(kinds)].join(', ')})` : 'missed'}\n`,
    );
  } finally {
    await target.close();
  }
}
process.stdout.write(
  `catch rate: Dredd ${caught.dredd}/${chosen.length}, conformance runner ${caught.runner}/${chosen.length}\n`,
);
process.stdout.write(
  '\n| API | kind of check | mutants | Dredd | conformance runner |\n|---|---|---|---|---|\n',
);
for (const [key, [mutantCount, dredd, runner]] of [...byKind].sort()) {
  const [api, kind] = key.split(' ');
  process.stdout.write(
    `| ${api} | ${kind} | ${mutantCount} | ${dredd} of ${mutantCount} | ${runner} of ${mutantCount} |\n`,
  );
}
// The sum of the rows above, from this run alone.
process.stdout.write(
  `| **all** | | **${chosen.length}** | **${caught.dredd} of ${chosen.length}** | **${caught.runner} of ${chosen.length}** |\n`,
);
