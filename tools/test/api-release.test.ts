// API releases and changelogs on a temp copy of the repository layout: releasing a new
// info.version keeps its bundle and dates its notes; the changelog then lists both versions, newest
// first with its date, and what changed between them (added, changed, deprecated, removed). And the
// committed changelogs in docs/changelogs/ are the ones the released bundles give.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiNames } from '@mall-api/spec-model';
import { afterAll, describe, expect, it } from 'vitest';
import { checkApi, passes } from '../src/api-releases/breaking-check.mjs';
import { renderChangelog } from '../src/api-releases/changelog.mjs';
import { cutRelease, pendingRelease } from '../src/api-releases/cut-release.mjs';
import { writePendingNotes } from '../src/api-releases/pending-notes.mjs';

const repoRoot = join(import.meta.dirname, '..', '..');
const released = readFileSync(join(repoRoot, 'specs', 'releases', 'collection', '1.0.0.json'), 'utf8');
const root = mkdtempSync(join(tmpdir(), 'api-release-'));
const releases = join(root, 'specs', 'releases', 'collection');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an API release', () => {
  it('keeps the bundle of a new info.version and dates its notes; the changelog shows what changed', async () => {
    mkdirSync(releases, { recursive: true });
    mkdirSync(join(root, 'specs', 'dist'), { recursive: true });
    writeFileSync(join(releases, '1.0.0.json'), released);
    writeFileSync(join(releases, '1.0.0.md'), '---\ndate: 2026-11-23\n---\nFirst release.\n');
    const next = JSON.parse(released);
    next.info.version = '1.1.0';
    next['x-api-versions'] = { header: 'X-Version', versions: [{ date: '2026-12-01' }] };
    next.paths['/api/shops'].get.parameters.push({
      name: 'shop_theme',
      in: 'query',
      schema: { type: 'string' },
    });
    next.paths['/api/products/count'].get.deprecated = true;
    writeFileSync(join(root, 'specs', 'dist', 'collection.openapi.json'), JSON.stringify(next));
    writeFileSync(join(releases, '1.1.0.md'), 'Shops can be found by theme.\n\n## Why\n\nPartners asked.\n');
    expect(passes(await checkApi('collection', root))).toBe(false);
    await writePendingNotes('collection', root);

    expect(pendingRelease('collection', root)).toMatchObject({
      version: '1.1.0',
      due: true,
      notesWritten: true,
    });
    expect(passes(await checkApi('collection', root))).toBe(true);
    cutRelease('collection', '2026-12-01', root);
    expect(existsSync(join(releases, '1.1.0.json'))).toBe(true);
    expect(readFileSync(join(releases, '1.1.0.md'), 'utf8')).toMatch(
      /^---\ndate: 2026-12-01\n---\nShops can be found by theme\.\n\n## Why\n\nPartners asked\.\n\n<!-- every change since the last release/,
    );
    expect(pendingRelease('collection', root).due).toBe(false);

    const changelog = await renderChangelog('collection', root);
    expect(changelog.indexOf('## Description 1.1.0 — 2026-12-01')).toBeLessThan(
      changelog.indexOf('## Description 1.0.0 — 2026-11-23'),
    );
    // The revision's API versions are stated apart from its number; the generated block is not repeated.
    expect(changelog).toContain('API versions described: 2026-12-01 (`X-Version`; the first is the latest).');
    expect(changelog).toContain('API versions: not yet recorded as data in this revision.');
    expect(changelog).not.toContain('<!-- every change');
    // The notes' own headings sit below their revision's: every second-level heading is a revision.
    expect(changelog).toContain('### Why\n\nPartners asked.');
    expect(changelog.match(/^## .*$/gm)?.every((heading) => heading.startsWith('## Description '))).toBe(
      true,
    );
    expect(changelog).toContain('### Added\n\n- query parameter `shop_theme` of `GET /api/shops`');
    expect(changelog).toContain('### Deprecated\n\n- operation `GET /api/products/count`');
    expect(changelog).not.toContain('### Removed');
  }, 60_000);
});

describe('docs/changelogs', () => {
  it('are up to date with the released bundles', async () => {
    await promisify(execFile)(process.execPath, [
      join(repoRoot, 'tools', 'src', 'api-changelog.mjs'),
      '--check',
    ]);
    for (const api of apiNames)
      expect(readFileSync(join(repoRoot, 'docs', 'changelogs', `${api}.md`), 'utf8')).toMatch(
        /^# .+: changelog\n[\s\S]*\n## Description \d+\.\d+\.\d+\S* — \d{4}-\d{2}-\d{2}\n\nAPI versions/,
      );
  });
});
