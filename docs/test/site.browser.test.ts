// The built site's own pages in a real headless Chromium: the landing page lists every API with
// its status, version, base address, auth style, rate limit and links; every page reachable from it
// (the guides and their index, the changelogs) loads with no console error, no failed request and
// no request outside localhost, and has no serious or critical accessibility violation (axe-core)
// in the light and the dark scheme, on a desktop and on a phone; at 360, 390 and 768 px no such
// page is wider than the screen, and on a phone a guide's title and first paragraph are above the
// fold; the Markdown copies, llms.txt and the Postman collections are there; a link checker over
// the whole site finds no broken internal link or anchor. The references are checked the same
// way, desktop and phone, by reference.browser.test.ts, which loads and starts each once for all of it.
// Each page is loaded once for all of that, as a reader's would change: on a desktop in the light
// scheme, read and scanned with every rule; switched to the dark scheme as the system setting
// changes (the site follows it by CSS and its theme script) and scanned again; then back in the
// light scheme on a phone, resized to each width and back, scanned, and switched to the dark scheme
// and scanned again. A scan after the first stands for a full one by what it checks (see
// `seriousAccessibilityViolations`): in the dark scheme the colour rules, and every rule over the
// header, all the dark scheme changes; on the phone in the light scheme the rules that read the
// layout, and every rule over the header, when the DOM and what is hidden elsewhere are as the full
// scan saw them (else every rule). No script of these pages reads the screen's size, so a page
// resized to a phone is the page a phone loads. Screenshots of the landing page and of a guide are
// kept in test-results/.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { JsonObject } from '@mall-api/spec-model';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersionsLabel } from '../build/api-versions-label.mjs';
import { rateLimitSummary } from '../build/rate-limit-summary.mjs';
import { startDocsServer } from '../build/serve.mjs';
import {
  type AccessibilityViolation,
  domDigest,
  launchChromium,
  measureOverflow,
  openWatchedPage,
  type PageProblems,
  phone,
  problemsSoFar,
  readInEachScheme,
  type Scheme,
  schemes,
  screenWidths,
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
const guidePages = guideNames.map((name) => `guides/${name}.html`);
const handMadePages = ['index.html', 'guides/index.html', ...guidePages, ...changelogPages];

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await Promise.all([...checks.values()].map((check) => check.catch(() => undefined)));
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

/** What one hand-made page showed on a desktop and on a phone. */
interface PageReport {
  desktop: Record<Scheme, PageCheck>;
  phone: Record<Scheme, { problems: PageProblems; violations: AccessibilityViolation[] }>;
  /** How much wider than the screen the page is, per screen width (≤ 0: it fits). */
  overflow: Map<number, number>;
  /** A guide's title and first paragraph on a phone: how far down the page they end (px). */
  fold?: { title: number; paragraph: number };
}

/** Where the first element matching `selector` ends, from the top of the page. */
const bottom = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);

/**
 * Loads a page once on a desktop, in the light scheme, reads it and scans it with every rule, then
 * switches it to the dark scheme and reads and scans it again (the colour rules); then shows it on
 * a phone in the light scheme, measures the fold and how much wider than each screen width it is,
 * and scans it (the layout rules), then in the dark scheme (the colour rules).
 */
async function checkPage(path: string): Promise<PageReport> {
  const { page, problems } = await openWatchedPage(browser, 'light');
  await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
  const fullScanOf = await domDigest(page);
  const desktop = await readInEachScheme(page, problems, async (scheme) => {
    const headings = await page.locator('h1').count();
    const violations = await seriousAccessibilityViolations(
      page,
      [],
      scheme === 'light' ? {} : { only: 'colours' },
    );
    if (path === 'guides/rate-limits.html') {
      await page.screenshot({ path: join(artifacts, `guide-rate-limits-${scheme}.png`), fullPage: true });
    }
    return { headings, violations };
  });
  const overflow = new Map<number, number>();
  let fold: PageReport['fold'];
  const onPhone = await readInEachScheme(
    page,
    problems,
    async (scheme) => {
      if (scheme === 'dark')
        return { violations: await seriousAccessibilityViolations(page, [], { only: 'colours' }) };
      await page.setViewportSize(phone);
      if (guidePages.includes(path))
        fold = {
          title: await bottom(page, 'article.guide h1'),
          paragraph: await bottom(page, 'article.guide > p:not(.breadcrumb)'),
        };
      await measureOverflow(page, overflow);
      return { violations: await seriousAccessibilityViolations(page, [], { only: 'layout', fullScanOf }) };
    },
    problemsSoFar(problems),
  );
  await page.close();
  return { desktop, phone: onPhone, overflow, ...(fold ? { fold } : {}) };
}

const checks = new Map<string, Promise<PageReport>>();
const reportOf = async (path: string): Promise<PageReport> => {
  const report = await checks.get(path);
  if (!report) throw new Error(`${path} was not checked`);
  return report;
};

// Under load, a page's axe-core scan can take several seconds: give the pages room.
describe('every guide page and the guides index', { timeout: 600_000 }, () => {
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

  it.each(cases)(
    '$path loads with no console error, failed request or request outside localhost ($scheme)',
    async ({ path, scheme }) => {
      const check = (await reportOf(path)).desktop[scheme];
      expect(check.problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
      expect(check.headings).toBe(1);
    },
  );

  it.each(cases)(
    '$path has no serious or critical accessibility violation (axe-core, $scheme)',
    async ({ path, scheme }) => {
      expect((await reportOf(path)).desktop[scheme].violations).toEqual([]);
    },
  );
});

describe('no page is wider than the screen', { timeout: 600_000 }, () => {
  for (const width of screenWidths) {
    it.each(handMadePages)(`at ${width} px: %s`, async (path) => {
      expect((await reportOf(path)).overflow.get(width)).toBeLessThanOrEqual(0);
    });
  }
});

describe('on a phone (390 × 844)', { timeout: 600_000 }, () => {
  for (const scheme of schemes) {
    it.each(handMadePages)(
      `in the ${scheme} scheme, %s logs nothing and has no serious accessibility violation`,
      async (path) => {
        const report = (await reportOf(path)).phone[scheme];
        expect(report.violations).toEqual([]);
        expect(report.problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
      },
    );
  }

  it.each(guidePages)('%s shows its title and first paragraph above the fold', async (path) => {
    const { fold } = await reportOf(path);
    expect(fold?.title).toBeLessThanOrEqual(phone.height);
    expect(fold?.paragraph).toBeLessThanOrEqual(phone.height);
  });
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
