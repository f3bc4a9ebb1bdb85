// The two reports of a conformance run: JUnit XML (one suite per API, one case per check named
// `<api>.<kind>.<operation>`) for CI, and Markdown for people: the totals, the totals per kind of
// check, the failed checks with their problems, the skipped ones with why. Neither holds
// credentials: the runner never puts them in a result.
import type { CheckResult } from './check.js';
import type { ConformanceReport } from './run-conformance.js';

const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The JUnit XML of one or more runs. */
export function junitReport(reports: readonly ConformanceReport[]): string {
  const suites = reports.map((report) => {
    const cases = report.results.map((r) => {
      const head = `    <testcase classname="${xml(`${report.api}.${r.group}.${r.subject}`)}" name="${xml(r.name)}"`;
      if (r.status === 'passed') return `${head}/>`;
      const body =
        r.status === 'failed'
          ? `<failure message="${xml(r.details[0] ?? 'failed')}">${xml(r.details.join('\n'))}</failure>`
          : `<skipped message="${xml(r.details.join('; '))}"/>`;
      return `${head}>${body}</testcase>`;
    });
    return `  <testsuite name="conformance ${xml(report.api)}" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

/** One table row per kind of check, in the order the run met them. */
function kindRows(results: readonly CheckResult[]): string[] {
  const kinds = [...new Set(results.map((r) => r.group))];
  return kinds.map((kind) => {
    const of = results.filter((r) => r.group === kind);
    const count = (status: CheckResult['status']) => of.filter((r) => r.status === status).length;
    return `| ${kind} | ${count('passed')} | ${count('failed')} | ${count('skipped')} |`;
  });
}

const line = (r: CheckResult) => `- **${r.subject}** (${r.group}) ${r.name}: ${r.details.join('; ')}`;

/** The Markdown report of one or more runs. */
export function markdownReport(reports: readonly ConformanceReport[]): string {
  return reports
    .map((report) => {
      const failed = report.results.filter((r) => r.status === 'failed');
      const skipped = report.results.filter((r) => r.status === 'skipped');
      return [
        `# Conformance of the ${report.api} API`,
        '',
        `Server ${report.baseUrl}, seed ${report.seed}, ${report.requests} requests.`,
        '',
        '| passed | failed | skipped |',
        '|---|---|---|',
        `| ${report.passed} | ${report.failed} | ${report.skipped} |`,
        '',
        '## By kind of check',
        '',
        '| kind | passed | failed | skipped |',
        '|---|---|---|---|',
        ...kindRows(report.results),
        '',
        '## Failed',
        '',
        ...(failed.length ? failed.map(line) : ['None.']),
        '',
        '## Skipped',
        '',
        ...(skipped.length ? skipped.map(line) : ['None.']),
        '',
      ].join('\n');
    })
    .join('\n');
}
