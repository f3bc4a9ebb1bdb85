// A coverage report (coverage-report.ts) as Markdown, for a pull request or a CI summary, and as
// JUnit XML, for CI systems that show test results: one test suite per measure with one test case
// per documented item (skipped when the calls did not exercise it), and a `thresholds` suite whose
// cases fail when a minimum was not reached. JSON is the report as it is.
import type { CoverageReport, Measure } from './coverage-report.js';

/** The formats a report is given in. */
export const coverageFormats = ['json', 'markdown', 'junit'] as const;
/** One of {@link coverageFormats}. */
export type CoverageFormat = (typeof coverageFormats)[number];

/** The media type of each format. */
export const coverageMediaTypes: Readonly<Record<CoverageFormat, string>> = {
  json: 'application/json',
  markdown: 'text/markdown',
  junit: 'application/xml',
};

/** A row of a measure: its name and how often the calls exercised it. */
interface Row {
  readonly name: string;
  readonly count: number;
}

/** The rows of each measure of a report, named for people. */
function rowsOf(
  report: CoverageReport,
): { title: string; noun: string; measure: Measure<unknown>; rows: Row[] }[] {
  return [
    {
      title: 'Operations',
      noun: 'calls',
      measure: report.operations,
      rows: report.operations.items.map((item) => ({
        name: `${item.api} ${item.operationId} (${item.method} ${item.path})`,
        count: item.calls,
      })),
    },
    {
      title: 'Responses',
      noun: 'answers',
      measure: report.responses,
      rows: report.responses.items.map((item) => ({
        name: `${item.api} ${item.operationId} ${item.status}`,
        count: item.answers,
      })),
    },
    {
      title: 'Rules',
      noun: 'refusals',
      measure: report.rules,
      rows: report.rules.items.map((item) => ({
        name: `${item.api} ${item.operationId ?? '(every call)'} ${item.rule}`,
        count: item.refusals,
      })),
    },
  ];
}

/** A Markdown table cell: pipes and line breaks escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The report as Markdown: a summary table, the thresholds, then each measure's items. */
export function coverageMarkdown(report: CoverageReport): string {
  const measures = rowsOf(report);
  const lines = [
    '# API coverage',
    '',
    `${report.requests} request(s) of ${report.malls.join(', ') || 'no mall'} counted.`,
    '',
    '| Measure | Exercised | Documented | Coverage |',
    '|---|---:|---:|---:|',
    ...measures.map(
      ({ title, measure }) =>
        `| ${title} | ${measure.exercised} | ${measure.documented} | ${measure.percent}% |`,
    ),
  ];
  if (report.thresholds.length > 0)
    lines.push(
      '',
      '| Threshold | Minimum | Coverage | Result |',
      '|---|---:|---:|---|',
      ...report.thresholds.map(
        (t) => `| ${t.measure} | ${t.minimum}% | ${t.percent}% | ${t.passed ? 'passed' : 'FAILED'} |`,
      ),
    );
  for (const { title, noun, rows } of measures)
    lines.push(
      '',
      `## ${title}`,
      '',
      `| | ${title.slice(0, -1)} | ${noun} |`,
      '|---|---|---:|',
      ...rows.map(({ name, count }) => `| ${count > 0 ? '✓' : '✗'} | ${cell(name)} | ${count} |`),
    );
  if (report.undocumented.length > 0)
    lines.push(
      '',
      '## Undocumented statuses',
      '',
      '| Operation | Status | Answers |',
      '|---|---:|---:|',
      ...report.undocumented.map((u) => `| ${u.api} ${u.operationId} | ${u.status} | ${u.answers} |`),
    );
  return `${lines.join('\n')}\n`;
}

/** Text escaped for an XML attribute or element. */
const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );

/** A JUnit test case of `suite`, passed, or holding its `<skipped>` or `<failure>`. */
const testcase = (suite: string, name: string, outcome = '') =>
  `    <testcase classname="${suite}" name="${xml(name)}"${outcome ? `>${outcome}</testcase>` : '/>'}`;

/** The report as JUnit XML. */
export function coverageJunit(report: CoverageReport): string {
  const suite = (name: string, cases: string[], failures: number, skipped: number) =>
    `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}${cases.length > 0 ? '\n' : ''}  </testsuite>`;
  const suites = rowsOf(report).map(({ title, noun, rows }) =>
    suite(
      `coverage.${title.toLowerCase()}`,
      rows.map(({ name, count }) =>
        testcase(`coverage.${title.toLowerCase()}`, name, count > 0 ? '' : `<skipped message="no ${noun}"/>`),
      ),
      0,
      rows.filter(({ count }) => count === 0).length,
    ),
  );
  const thresholds = report.thresholds.map((t) =>
    testcase(
      'coverage.thresholds',
      `${t.measure} coverage at least ${t.minimum}%`,
      t.passed ? '' : `<failure message="${xml(`${t.percent}% is under ${t.minimum}%`)}"/>`,
    ),
  );
  const failed = report.thresholds.filter((t) => !t.passed).length;
  suites.unshift(suite('coverage.thresholds', thresholds, failed, 0));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="API coverage">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The report in a format, as the body to send. */
export const formatCoverage = (report: CoverageReport, format: CoverageFormat): unknown =>
  format === 'markdown' ? coverageMarkdown(report) : format === 'junit' ? coverageJunit(report) : report;
