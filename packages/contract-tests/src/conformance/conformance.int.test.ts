// The conformance runner against our stateful mock, unbroken: every check of all three APIs
// passes (the rate limit spent, the clock moved through the control API), and the command writes
// its JUnit and Markdown reports without a credential in them.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localRunOptions, startLocalTarget } from './local-target.js';
import { runConformance } from './run-conformance.js';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', '..', 'bin', 'mall-api-contract.js');
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'conformance-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the conformance runner against the stateful mock', () => {
  it.each(apiNames)(
    'passes every check of the %s API, the rate limit and a sequence included',
    async (api) => {
      const target = await startLocalTarget(api);
      try {
        const report = await runConformance(localRunOptions(api, target));
        expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
        const passedIn = (group: string) =>
          report.results.filter((r) => r.group === group && r.status === 'passed').length;
        expect(passedIn('requests')).toBeGreaterThan(300);
        expect(passedIn('auth')).toBeGreaterThan(0);
        expect(passedIn('rate-limit')).toBe(1);
        if (api === 'admin') expect(passedIn('sequence')).toBeGreaterThanOrEqual(2);
      } finally {
        await target.close();
      }
    },
    300_000,
  );

  it('runs from the command against a server it did not start, within the budget, and writes both reports', async () => {
    const target = await startLocalTarget('collection');
    const junit = join(scratch, 'collection.xml');
    const markdown = join(scratch, 'collection.md');
    try {
      const { stdout } = await run(process.execPath, [
        cli,
        'conformance',
        ...['--api', 'collection', '--base-url', target.baseUrl, '--client-id', 'demo-partner'],
        ...['--client-secret', 'demo-partner-secret', '--mock-clock', '--max-requests', '200'],
        ...['--seed', '7', '--junit', junit, '--report', markdown],
      ]);
      const [, passed, failed, skipped, requests] =
        /collection: (\d+) passed, (\d+) failed, (\d+) skipped, (\d+) requests/.exec(stdout) ?? [];
      expect(failed).toBe('0');
      expect(Number(requests)).toBe(200);
      expect(Number(skipped)).toBeGreaterThan(0);
      const xml = readFileSync(junit, 'utf8');
      expect(xml.match(/<testcase /g)).toHaveLength(Number(passed) + Number(skipped));
      expect(xml).toContain('the budget of 200 requests is spent');
      const text = readFileSync(markdown, 'utf8');
      expect(text).toContain('# Conformance of the collection API');
      expect(text).toContain('seed 7, 200 requests');
      for (const kind of ['requests', 'filters', 'count', 'auth'])
        expect(text).toMatch(new RegExp(`^\\| ${kind} \\| \\d+ \\| \\d+ \\| \\d+ \\|$`, 'm'));
      expect(xml).toContain('classname="collection.filters.listProducts"');
      for (const secret of [
        'demo-partner-secret',
        Buffer.from('demo-partner:demo-partner-secret').toString('base64'),
      ]) {
        expect(xml).not.toContain(secret);
        expect(text).not.toContain(secret);
        expect(stdout).not.toContain(secret);
      }
    } finally {
      await target.close();
    }
  }, 300_000);
});
