// Every page of the built site on small screens, in a real headless Chromium: at 360, 390 and
// 768 px no page (landing page, guides and their index, changelogs, each reference as it arrives
// and once Redoc is live) is wider than the screen; on a phone a guide's title and first paragraph are above the
// fold; every page logs no console error or warning, in both colour schemes; and axe-core finds no
// serious or critical accessibility violation on a phone in the light and the dark scheme (the
// desktop scans are site.browser.test.ts's and reference.browser.test.ts's).
// Each page is loaded once, on a phone in the light scheme: read there, resized to each width and
// back, scanned, then switched to the dark scheme as the system setting changes (the site follows
// it by CSS) and scanned again; a few pages load side by side. The tests then read what was found.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import {
  type AccessibilityViolation,
  launchChromium,
  openWatchedPage,
  type PageProblems,
  phone,
  problemsSince,
  renderEveryOperation,
  seriousAccessibilityViolations,
  tapRedocControl,
} from './browser.js';
import { laneQueue } from './lanes.js';
import { redocKnownViolations } from './redoc-known-violations.js';

const docsRoot = join(import.meta.dirname, '..');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

const apis = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as { name: string }[];
const markdownNames = async (folder: string) =>
  (await readdir(join(docsRoot, folder)).catch(() => []))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.replace(/\.md$/, ''));
const guides = (await markdownNames('guides')).map((name) => `guides/${name}.html`);
const references = apis.map((api) => `${api.name}/index.html`);
const pages = [
  'index.html',
  'guides/index.html',
  ...guides,
  ...(await markdownNames('changelogs')).map((name) => `changelogs/${name}.html`),
  ...references,
];
const widths = [360, 390, 768] as const;
type Scheme = 'light' | 'dark';

/** What one page showed. */
interface PageReport {
  /** How much wider than the screen the page is, per screen width (≤ 0: it fits). */
  overflow: Map<number, number>;
  /** What went wrong while the page showed each scheme. */
  problems: Record<Scheme, PageProblems>;
  violations: Record<Scheme, AccessibilityViolation[]>;
  /** A guide's title and first paragraph: how far down the page they end (px). */
  fold?: { title: number; paragraph: number };
}

/** How much wider than the screen the page is, once the page has laid out a frame. */
const overflow = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => resolve(document.documentElement.scrollWidth - window.innerWidth)),
      ),
  );

/** Where the first element matching `selector` ends, from the top of the page. */
const bottom = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);

async function inspect(path: string): Promise<PageReport> {
  const { page, problems } = await openWatchedPage(browser, 'light', phone);
  const start: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] };
  await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
  if (references.includes(path)) await renderEveryOperation(page);
  const fold = guides.includes(path)
    ? {
        title: await bottom(page, 'article.guide h1'),
        paragraph: await bottom(page, 'article.guide > p:not(.breadcrumb)'),
      }
    : undefined;
  const widthsSeen = new Map<number, number>();
  const measureWidths = async () => {
    for (const width of [...widths, phone.width]) {
      await page.setViewportSize({ width, height: width === phone.width ? phone.height : 800 });
      widthsSeen.set(
        width,
        Math.max(widthsSeen.get(width) ?? Number.NEGATIVE_INFINITY, await overflow(page)),
      );
    }
  };
  await measureWidths();
  // A reference is read as it arrives (prerendered, Redoc not started) and again once Redoc is
  // live: it starts on a tap on one of its controls, and hydrating a whole reference takes seconds
  // on a loaded machine; the test waits, it does not time. The scans below see the live page.
  if (references.includes(path)) {
    await tapRedocControl(page);
    await measureWidths();
  }
  const light = await seriousAccessibilityViolations(page, redocKnownViolations);
  const afterLight = problemsSince(problems, start);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
  const dark = await seriousAccessibilityViolations(page, redocKnownViolations);
  const report: PageReport = {
    overflow: widthsSeen,
    problems: { light: afterLight, dark: problemsSince(problems, afterLight) },
    violations: { light, dark },
    ...(fold ? { fold } : {}),
  };
  await page.context().close();
  return report;
}

// A few pages side by side (each its own tab), not all at once, which a busy machine answers with
// navigation time-outs; the tests below each read their page's report.
const reports = new Map<string, Promise<PageReport>>();
beforeAll(async () => {
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
  const inLane = laneQueue<number>();
  pages.forEach((path, index) => {
    reports.set(
      path,
      inLane(index % 3, () => inspect(path)),
    );
  });
});
afterAll(async () => {
  await Promise.all([...reports.values()].map((report) => report.catch(() => undefined)));
  await browser?.close();
  await site?.close();
});

const reportOf = async (path: string): Promise<PageReport> => {
  const report = await reports.get(path);
  if (!report) throw new Error(`${path} was not inspected`);
  return report;
};

describe('no page is wider than the screen', { timeout: 600_000 }, () => {
  for (const width of widths) {
    it.each(pages)(`at ${width} px: %s`, async (path) => {
      expect((await reportOf(path)).overflow.get(width)).toBeLessThanOrEqual(0);
    });
  }
});

describe('on a phone (390 × 844)', { timeout: 600_000 }, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it.each(pages)(
      `in the ${scheme} scheme, %s logs nothing and has no serious accessibility violation`,
      async (path) => {
        const report = await reportOf(path);
        expect(report.violations[scheme]).toEqual([]);
        expect(report.problems[scheme]).toEqual({
          consoleErrors: [],
          failedRequests: [],
          externalRequests: [],
        });
      },
    );
  }

  it.each(guides)('%s shows its title and first paragraph above the fold', async (path) => {
    const { fold } = await reportOf(path);
    expect(fold?.title).toBeLessThanOrEqual(phone.height);
    expect(fold?.paragraph).toBeLessThanOrEqual(phone.height);
  });
});
