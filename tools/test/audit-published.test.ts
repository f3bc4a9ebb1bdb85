// The audit of published trees: which packages a user of each workspace installs (read from the
// lock file), and how OSV records are matched against them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { osvAdvisories, osvAffects, productionTree } from '../src/audit-published.mjs';
import { repoRoot } from '../src/published-packages.mjs';

const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8'));
const tree = (workspace: string) => productionTree(workspace, lock.packages);

describe('the production tree of a published workspace', () => {
  it('follows workspace links to their third-party dependencies', () => {
    expect(tree('packages/collection-client').get('openapi-fetch')?.size).toBe(1);
    expect(tree('packages/mock-server').has('ajv')).toBe(true);
  });

  it('leaves out optional peers and devDependencies: no ioredis, Prism or Dredd', () => {
    expect(tree('packages/collection-client').has('ioredis')).toBe(false);
    expect(tree('packages/rate-limit').size).toBe(0);
    for (const name of ['@stoplight/prism-http', 'fp-ts', 'ioredis'])
      expect(tree('packages/mock-server').has(name)).toBe(false);
    expect(tree('packages/contract-tests').has('dredd')).toBe(false);
  });

  it('lists the lock file version of each package', () => {
    const [version] = tree('packages/spec-model').get('ajv') ?? [];
    expect(version).toBe(lock.packages['node_modules/ajv'].version);
  });
});

describe('matching OSV records', () => {
  const range = (events: Record<string, string>[]) => ({ ranges: [{ type: 'SEMVER', events }] });

  it('covers versions from introduced up to, not including, fixed', () => {
    const affected = range([
      { introduced: '0' },
      { fixed: '0.2.4' },
      { introduced: '1.0.0' },
      { fixed: '1.2.6' },
    ]);
    expect(osvAffects(affected, '0.0.10')).toBe(true);
    expect(osvAffects(affected, '0.2.4')).toBe(false);
    expect(osvAffects(affected, '1.2.5')).toBe(true);
    expect(osvAffects(affected, '1.2.6')).toBe(false);
  });

  it('covers versions up to and including last_affected, listed versions, and open ranges', () => {
    expect(osvAffects(range([{ introduced: '2.0.0' }, { last_affected: '2.3.3' }]), '2.3.3')).toBe(true);
    expect(osvAffects(range([{ introduced: '2.0.0' }, { last_affected: '2.3.3' }]), '2.3.4')).toBe(false);
    expect(osvAffects({ versions: ['7.0.3'] }, '7.0.3')).toBe(true);
    expect(osvAffects(range([{ introduced: '3.0.0' }]), '9.9.9')).toBe(true);
  });

  it('reports the severity of each record that affects a package of the tree, and no other', () => {
    const directory = mkdtempSync(join(tmpdir(), 'mall-api-osv-'));
    try {
      const record = (id: string, name: string, severity: string, fixed: string) => ({
        id,
        summary: `${id} summary`,
        affected: [
          {
            package: { ecosystem: 'npm', name },
            ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }],
          },
        ],
        database_specific: { severity },
      });
      writeFileSync(join(directory, 'a.json'), JSON.stringify(record('TEST-1', 'left-pad', 'HIGH', '2.0.0')));
      writeFileSync(join(directory, 'b.json'), JSON.stringify(record('TEST-2', 'left-pad', 'LOW', '1.0.0')));
      writeFileSync(
        join(directory, 'c.json'),
        JSON.stringify(record('TEST-3', 'right-pad', 'CRITICAL', '9.0.0')),
      );
      const found = osvAdvisories(directory, new Map([['left-pad', new Set(['1.3.0'])]]));
      expect([...found]).toEqual([['left-pad', [{ severity: 'high', title: 'TEST-1 summary' }]]]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
