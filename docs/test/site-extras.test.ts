// The build's smaller pieces at the function: placeholders in httpsnippet's output read from the
// environment in each language; the search index finds operations by summary, parameter and
// field name and guide sections by their text; changelog pages and their links on the landing page
// (present only when there are changelogs); llms.txt in the llmstxt.org layout; the API versions
// label, apart from the description revision.
import { loadSpecSync } from '@mall-api/spec-model';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { generatedEnd, generatedStart } from '../../tools/src/api-releases/release-notes.mjs';
import { apiVersionsLabel } from '../build/api-versions-label.mjs';
import {
  generatedMarkers,
  parseChangelog,
  renderChangelogPage,
  withPendingReleases,
} from '../build/changelog-pages.mjs';
import { readPlaceholdersFromEnvironment, snippetOf } from '../build/http-snippets.mjs';
import { renderLanding } from '../build/landing-page.mjs';
import { llmsTxt } from '../build/markdown-copies.mjs';
import { guideDocuments, referenceDocuments, searchIndexJson } from '../build/search-index.mjs';
import { searchOptions } from '../src/search-options.mjs';

describe('readPlaceholdersFromEnvironment', () => {
  it('lets the shell expand $NAME inside single quotes', () => {
    expect(readPlaceholdersFromEnvironment('curl', "--header 'Authorization: Bearer $TOKEN'")).toBe(
      `--header 'Authorization: Bearer '"$TOKEN"`,
    );
  });
  it('reads os.environ in Python and getenv in PHP, URL-encoded in a PHP form body', () => {
    expect(readPlaceholdersFromEnvironment('python', 'x = {"a": "$CODE", "b": "Bearer $TOKEN"}')).toBe(
      'import os\nx = {"a": os.environ["CODE"], "b": "Bearer " + os.environ["TOKEN"]}',
    );
    expect(readPlaceholdersFromEnvironment('php', 'CURLOPT_POSTFIELDS => "code=%24CODE&x=1"')).toBe(
      `CURLOPT_POSTFIELDS => "code=" . urlencode(getenv('CODE')) . "&x=1"`,
    );
  });
  it('leaves code without placeholders as httpsnippet wrote it', () => {
    const request = { method: 'GET', url: 'http://127.0.0.1:4010/api/shops', headers: [] };
    expect(snippetOf('python', request)).not.toContain('import os');
    expect(snippetOf('curl', request)).toBe('curl --request GET \\\n  --url http://127.0.0.1:4010/api/shops');
  });
});

describe('the search index', () => {
  const admin = loadSpecSync('admin');
  const documents = [
    ...referenceDocuments({ name: 'admin', shortTitle: 'Admin' }, admin),
    ...guideDocuments(
      { name: 'rate-limits', title: 'Rate limits', summary: 'How each API counts calls: throttling.' },
      '<h1>Rate limits</h1><p>Intro.</p><h2 id="admin-leaky-bucket"><a class="anchor" href="#admin-leaky-bucket">#</a>Admin: leaky bucket</h2><p>Drains two calls per second.</p><h3 id="rotation-and-why-it-needs-care"><a class="anchor" href="#rotation-and-why-it-needs-care">#</a>Rotation, and why it needs care</h3><p>Each refresh returns a new refresh token and voids the old one.</p>',
    ),
  ];
  const index = MiniSearch.loadJSON(searchIndexJson(documents), searchOptions);
  const urls = (query: string) =>
    index.search(query, { prefix: true, combineWith: 'AND' }).map((result) => String(result.url));

  it('has one entry per operation, found by a request field, a parameter and a response field', () => {
    expect(documents.filter((document) => document.url.startsWith('admin/')).length).toBe(
      admin.operations.length,
    );
    expect(urls('bundle_product_components')).toContain('admin/index.html#operation/createBundleProduct');
    expect(urls('since_product_no')).toContain('admin/index.html#operation/listProducts');
    expect(urls('category_depth')).toContain('admin/index.html#operation/getCategory');
  });

  it('has one entry per guide section, linked to its heading', () => {
    expect(urls('drains two calls')).toEqual(['guides/rate-limits.html#admin-leaky-bucket']);
    expect(documents.find((document) => document.url.endsWith('#admin-leaky-bucket'))?.title).toBe(
      'Admin: leaky bucket',
    );
  });

  it('has one entry per subsection too, found by its heading and text together', () => {
    expect(urls('refresh token rotation')).toEqual([
      'guides/rate-limits.html#rotation-and-why-it-needs-care',
    ]);
  });

  it('finds a guide by the topics of its summary', () => {
    expect(urls('throttling')).toEqual(['guides/rate-limits.html']);
  });
});

/** The landing page's "Try it now" input. */
const start = {
  sample: {
    summary: 'List products',
    reference: 'collection/index.html',
    curl: 'curl',
    python: 'py',
    php: 'php',
  },
  credentials: { basic: { clientId: 'a', clientSecret: 'b' }, oauth: { clientId: 'c', clientSecret: 'd' } },
};

describe('the changelogs', () => {
  const changelog = parseChangelog(
    'admin',
    '# Admin API changelog\n\n## 2026-11-01\n\n- Added `since_product_no`.\n',
  );
  it('become pages titled by their first heading', () => {
    expect(changelog.title).toBe('Admin API changelog');
    const page = renderChangelogPage(changelog, []);
    expect(page).toContain('<title>Admin API changelog — mall-api</title>');
    expect(page).toContain('<code>since_product_no</code>');
    expect(page.match(/<h1/g)?.length).toBe(1);
  });

  it('fold a revision’s generated list of every change under its heading, with the number of changes', () => {
    const page = renderChangelogPage(
      parseChangelog(
        'admin',
        `# Admin API changelog\n\n## Description 2.0.0 — not yet released\n\nTwo.\n\n${generatedStart}\n\n### Every change since 1.0.0\n\n#### Added\n\n- one\n- two\n\n${generatedEnd}\n\n## Description 1.0.0 — 2026-11-23\n\nOne.\n`,
      ),
      [],
    );
    expect(page).toMatch(
      /<p>Two\.<\/p>\s*<details class="every-change"><summary><h3 [^>]*>.*Every change since 1\.0\.0 <span class="count">\(2 changes\)<\/span><\/h3><\/summary>\s*<h4[^>]*>.*Added<\/h4>\s*<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>\s*<\/details>\s*<h2/,
    );
    // The markers are the release notes' own.
    expect(generatedMarkers).toEqual({ start: generatedStart, end: generatedEnd });
  });

  it('are linked from the landing page, which has no changelog section without them', () => {
    expect(renderLanding([], [], [], [changelog], start)).toContain('href="changelogs/admin.html"');
    expect(renderLanding([], [], [], [], start)).not.toContain('id="changelogs"');
  });

  it('show first, as description revisions not yet released, the notes the changelog lacks', () => {
    const released = parseChangelog(
      'admin',
      '# Admin API changelog\n\nIntro.\n\n## Description 1.0.0 — 2026-11-23\n\nAPI versions: not yet recorded.\n',
    );
    const shown = withPendingReleases(
      released,
      [
        { version: '1.0.0', markdown: '---\ndate: 2026-11-23\n---\nlisted already' },
        {
          version: '2.0.0',
          markdown: '---\ndate: 2026-11-24\n---\nTwo.\n\n## Incompatible description changes\n\n- Gone.\n',
        },
        { version: '10.0.0', markdown: 'Ten.\n' },
      ],
      '2020-09-01 (latest); header X-Platform-Api-Version',
    ).markdown;
    expect(shown).not.toContain('listed already');
    // The notes' front matter is not shown (it would render as a `date:` heading).
    expect(shown).not.toContain('date: 2026-11-24');
    const order = [
      '## Description 10.0.0 — not yet released\n\nAPI versions described: 2020-09-01 (latest); header X-Platform-Api-Version.\n\nTen.',
      '## Description 2.0.0 — not yet released\n\nAPI versions described: 2020-09-01 (latest); header X-Platform-Api-Version.\n\nTwo.',
      '### Incompatible description changes',
      '## Description 1.0.0 — 2026-11-23',
    ];
    expect(order.every((text) => shown.includes(text))).toBe(true);
    expect(order.map((text) => shown.indexOf(text))).toEqual(
      [...order.map((text) => shown.indexOf(text))].sort((a, b) => a - b),
    );
    expect(shown.match(/^## Description 1\.0\.0/gm)).toHaveLength(1);
    expect(withPendingReleases(released, [], 'none published')).toBe(released);
  });

  it('are listed in llms.txt', () => {
    const text = llmsTxt([], [], [changelog]);
    expect(text).toContain('- [Admin API changelog](changelogs/admin.md)');
    expect(llmsTxt([], [], [])).not.toContain('Changelogs');
  });
});

describe('API versions on the site', () => {
  it('names the date versions apart from the description revision', () => {
    expect(apiVersionsLabel(loadSpecSync('admin').document)).toBe(
      '2020-09-01 (latest); header X-Platform-Api-Version',
    );
    expect(apiVersionsLabel(loadSpecSync('collection').document)).toBe('none published');
  });
});
