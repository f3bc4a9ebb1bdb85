// The built site's own pages in a real headless Chromium: the landing page lists every API with
// its status, version, base address, auth style, rate limit and links; every page reachable from it
// (the guides and their index) loads with no console error, no failed request and no request
// outside localhost, and has no serious or critical accessibility violation (axe-core) in the light
// and the dark scheme (each page loaded once and switched to the dark scheme as the system setting
// changes, as a reader's would; scanned with every rule in the light scheme, and in the dark one
// with the colour rules and every rule over the header, all the dark scheme changes, which the scan
// checks); the Markdown copies, llms.txt and the Postman collections are there; a link
// checker over the whole site finds no broken internal link or anchor. Screenshots of the landing
// page and of a guide are kept in test-results/.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { JsonObject } from '@mall-api/spec-model';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersionsLabel } from '../build/api-versions-label.mjs';
import { rateLimitSummary } from '../build/rate-limit-summary.mjs';
import { startDocsServer } from '../build/serve.mjs';
import {
  type AccessibilityViolation,
  launchChromium,
  openWatchedPage,
  type PageProblems,
  readInEachScheme,
  type Scheme,
  schemes,
  seriousAccessibilityViolations,
} from './browser.js';
import { laneQueue } from './lanes.js';
import { type CrawlReport, crawlSite, type ReferenceAnchors } from './site-crawler.js';

const docsRoot = join(import.meta.dirname, '..');
const artifacts = join(docsRoot, '..', 'test-results');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

interface ApiEntry {
  name: string;
  title: string;
  status: string;
  auth: string;
}
interface Spec {
  info: { version: string };
  'x-rate-limit': unknown;
  servers: { url: string }[];
  tags?: { name: string }[];
  paths: Record<string, Record<string, { operationId: string; tags?: string[] }>>;
}
const apis = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as ApiEntry[];
const specs = new Map<string, Spec>(
  await Promise.all(
    apis.map(
      async (api) =>
        [
          api.name,
          JSON.parse(await readFile(join(docsRoot, 'dist', 'specs', `${api.name}.openapi.json`), 'utf8')),
        ] as [string, Spec],
    ),
  ),
);
const guideNames = (await readdir(join(docsRoot, 'guides')))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));
/** The API changelogs (docs/changelogs/<api>.md), each a page of its own. */
const changelogPages = (await readdir(join(docsRoot, 'changelogs')).catch(() => []))
  .filter((file) => file.endsWith('.md'))
  .map((file) => `changelogs/${file.replace(/\.md$/, '')}.html`);
const handMadePages = [
  'index.html',
  'guides/index.html',
  ...guideNames.map((name) => `guides/${name}.html`),
  ...changelogPages,
];

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the landing page', () => {
  it('lists every API with its status, version, base address, auth style, rate limit and links', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/index.html`, { waitUntil: 'load' });
    for (const api of apis) {
      const spec = specs.get(api.name) as Spec;
      const card = page.locator('section.api-card', { has: page.getByRole('heading', { name: api.title }) });
      await expect(card.count()).resolves.toBe(1);
      const text = (await card.textContent()) ?? '';
      for (const fact of [
        api.status,
        spec.info.version,
        apiVersionsLabel(spec as unknown as JsonObject),
        spec.servers[0]?.url ?? '?',
        api.auth,
        rateLimitSummary(spec['x-rate-limit']),
      ]) {
        expect(text, `${api.name}: ${fact}`).toContain(fact);
      }
      const hrefs = await card
        .locator('a')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(hrefs).toEqual(
        expect.arrayContaining([
          `${api.name}/index.html`,
          `specs/${api.name}.openapi.yaml`,
          `specs/${api.name}.openapi.json`,
          `guides/getting-started.html#${api.name}-api`,
        ]),
      );
    }
    await expect(page.locator('.badge.beta').textContent()).resolves.toBe('Beta');
    await page.screenshot({ path: join(artifacts, 'landing.png'), fullPage: true });
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
    await page.close();
  });
});

/** What one hand-made page showed in one scheme: its problems, its level-one headings and axe's findings. */
interface PageCheck {
  problems: PageProblems;
  headings: number;
  violations: AccessibilityViolation[];
}

/**
 * Loads a page once, in the light scheme, reads and scans it, then switches it to the dark scheme
 * as the system setting changes (the site follows it by CSS and its theme script) and reads and
 * scans it again: what each scheme showed.
 */
async function checkPage(path: string): Promise<Record<Scheme, PageCheck>> {
  const { page, problems } = await openWatchedPage(browser, 'light');
  await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
  const checked = await readInEachScheme(page, problems, async (scheme) => {
    const headings = await page.locator('h1').count();
    // Scanned in the light scheme first, so in the dark one the colour rules suffice.
    const violations = await seriousAccessibilityViolations(page, [], { coloursOnly: scheme === 'dark' });
    if (path === 'guides/rate-limits.html') {
      await page.screenshot({ path: join(artifacts, `guide-rate-limits-${scheme}.png`), fullPage: true });
    }
    return { headings, violations };
  });
  await page.close();
  return checked;
}

// Under load, a page's axe-core scan can take several seconds: give the pages room.
describe('every guide page and the guides index', { timeout: 120_000 }, () => {
  const checks = new Map<string, Promise<Record<Scheme, PageCheck>>>();
  const cases = handMadePages.flatMap((path) => schemes.map((scheme) => ({ path, scheme })));
  // Each page opens a tab and runs axe: a few side by side (not all at once, which a busy machine
  // answers with navigation time-outs), then each test looks at its own.
  const sideBySide = 3;
  beforeAll(() => {
    const inLane = laneQueue<number>();
    handMadePages.forEach((path, index) => {
      checks.set(
        path,
        inLane(index % sideBySide, () => checkPage(path)),
      );
    });
  });
  const checkOf = async (path: string, scheme: Scheme) => (await checks.get(path))?.[scheme];

  it.each(cases)(
    '$path loads with no console error, failed request or request outside localhost ($scheme)',
    async ({ path, scheme }) => {
      const check = await checkOf(path, scheme);
      expect(check?.problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
      expect(check?.headings).toBe(1);
    },
  );

  it.each(cases)(
    '$path has no serious or critical accessibility violation (axe-core, $scheme)',
    async ({ path, scheme }) => {
      expect((await checkOf(path, scheme))?.violations).toEqual([]);
    },
  );
});

describe('the link checker', () => {
  let report: CrawlReport;
  beforeAll(async () => {
    const anchors: ReferenceAnchors = new Map();
    for (const [name, spec] of specs) {
      const operations = Object.values(spec.paths).flatMap((item) => Object.values(item));
      anchors.set(`/${name}/index.html`, {
        operations: new Set(operations.map((operation) => operation.operationId)),
        tags: new Set((spec.tags ?? []).map((tag) => tag.name)),
      });
    }
    report = await crawlSite(site.url, anchors);
  });

  it('reaches every page of the site from the landing page', () => {
    expect(report.pages.sort()).toEqual(
      [...handMadePages, ...apis.map((api) => `${api.name}/index.html`)].map((page) => `/${page}`).sort(),
    );
  });

  it('finds no broken internal link or anchor', () => {
    expect(report.broken).toEqual([]);
    expect(report.checked.length).toBeGreaterThan(handMadePages.length + apis.length * 3);
  });
});

/** Sends `path` exactly as written (fetch would normalize it) and resolves to the status. */
const rawStatus = (base: string, path: string) =>
  new Promise<number>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    httpRequest({ hostname, port, path }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });

describe('the downloads for tools', () => {
  it('are linked from the landing page: llms.txt, a Markdown copy of every page, a Postman collection per API', async () => {
    const landing = await (await fetch(`${site.url}/index.html`)).text();
    const llms = await (await fetch(`${site.url}/llms.txt`)).text();
    expect(landing).toContain('href="llms.txt"');
    expect(llms).toMatch(/^# mall-api\n\n> /);
    for (const name of guideNames) {
      expect(landing).toContain(`href="guides/${name}.md"`);
      expect(llms).toContain(`(guides/${name}.md)`);
      const copy = await fetch(`${site.url}/guides/${name}.md`);
      expect(copy.status).toBe(200);
      expect(await copy.text()).not.toMatch(/\{\{[a-z-]+:/);
    }
    for (const api of apis) {
      const spec = specs.get(api.name) as Spec;
      const operations = Object.values(spec.paths).flatMap((item) => Object.values(item));
      expect(landing).toContain(`href="${api.name}/reference.md"`);
      expect(landing).toContain(`href="postman/${api.name}.postman_collection.json"`);
      expect(llms).toContain(`(${api.name}/reference.md)`);
      const markdown = await (await fetch(`${site.url}/${api.name}/reference.md`)).text();
      for (const operation of operations)
        expect(markdown).toContain(`operationId \`${operation.operationId}\``);
      const collection = (await (
        await fetch(`${site.url}/postman/${api.name}.postman_collection.json`)
      ).json()) as {
        info: { schema: string };
        item: { item?: unknown[] }[];
        variable: { key: string; value: string }[];
      };
      expect(collection.info.schema).toContain('v2.1.0');
      const requests = collection.item.flatMap((folder) => folder.item ?? [folder]);
      expect(requests.length).toBe(operations.length);
      expect(collection.variable.find((variable) => variable.key === 'baseUrl')?.value).toBe(
        spec.servers.find((server) => server.url.startsWith('http://127.0.0.1'))?.url,
      );
    }
  });
});

describe('the changelog pages', () => {
  it('head every revision as a description revision, released ones once, pending ones with the API versions', async () => {
    for (const page of changelogPages) {
      const markdown = await (await fetch(`${site.url}/${page.replace(/\.html$/, '.md')}`)).text();
      const api = page.replace(/^changelogs\/|\.html$/g, '');
      const headings = markdown.match(/^## .*$/gm) ?? [];
      expect(headings.length, api).toBeGreaterThan(0);
      for (const heading of headings) expect(heading, api).toMatch(/^## Description \d+\.\d+\.\d+\S* — /);
      const revisions = headings.map((heading) => /Description (\S+)/.exec(heading)?.[1]);
      expect(new Set(revisions).size, api).toBe(revisions.length);
      const spec = specs.get(api) as Spec;
      for (const pending of markdown.matchAll(/^## Description (\S+) — not yet released\n\n(.*)$/gm))
        expect(pending[2], `${api} ${pending[1]}`).toBe(
          `API versions described: ${apiVersionsLabel(spec as unknown as JsonObject)}.`,
        );
    }
  });
});
describe('the docs server', () => {
  it('serves files under its root only, and survives malformed paths', async () => {
    expect(await rawStatus(site.url, '//index.html')).toBe(200);
    expect(await rawStatus(site.url, '/%E0%A4%A')).toBe(400);
    expect(await rawStatus(site.url, '/../package.json')).not.toBe(200);
    expect(await rawStatus(site.url, '/..%2fpackage.json')).toBe(403);
    expect(await rawStatus(site.url, '/guides/')).toBe(200);
  });
});
