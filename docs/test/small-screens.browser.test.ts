// Every page of the built site but the references on small screens, in a real headless Chromium:
// at 360, 390 and 768 px no page (landing page, guides and their index, changelogs) is wider than
// the screen; on a phone a guide's title and first paragraph are above the fold; every page logs
// no console error or warning, in both colour schemes; and axe-core finds no serious or critical
// accessibility violation on a phone in the light and the dark scheme (the desktop scans are
// site.browser.test.ts's). The references are checked the same way, at the same widths and on a
// phone in both schemes, by reference.browser.test.ts, which loads and starts each once for all of it.
// Each page is loaded once, on a phone in the light scheme: read there, resized to each width and
// back, scanned, then switched to the dark scheme as the system setting changes (the site follows
// it by CSS) and scanned again (the colour rules, and every rule over the header: all the dark
// scheme changes, which the scan checks); a few pages load side by side. The tests then read what was found.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import {
  type AccessibilityViolation,
  launchChromium,
  measureOverflow,
  openWatchedPage,
  type PageProblems,
  phone,
  readInEachScheme,
  type Scheme,
  screenWidths,
  seriousAccessibilityViolations,
} from './browser.js';
import { laneQueue } from './lanes.js';

const docsRoot = join(import.meta.dirname, '..');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

const markdownNames = async (folder: string) =>
  (await readdir(join(docsRoot, folder)).catch(() => []))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.replace(/\.md$/, ''));
const guides = (await markdownNames('guides')).map((name) => `guides/${name}.html`);
const pages = [
  'index.html',
  'guides/index.html',
  ...guides,
  ...(await markdownNames('changelogs')).map((name) => `changelogs/${name}.html`),
];

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

/** Where the first element matching `selector` ends, from the top of the page. */
const bottom = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);

async function inspect(path: string): Promise<PageReport> {
  const { page, problems } = await openWatchedPage(browser, 'light', phone);
  await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
  const fold = guides.includes(path)
    ? {
        title: await bottom(page, 'article.guide h1'),
        paragraph: await bottom(page, 'article.guide > p:not(.breadcrumb)'),
      }
    : undefined;
  const overflow = new Map<number, number>();
  await measureOverflow(page, overflow);
  // Scanned in the light scheme first, so in the dark one the colour rules suffice.
  const readings = await readInEachScheme(page, problems, async (scheme) => ({
    violations: await seriousAccessibilityViolations(page, [], { coloursOnly: scheme === 'dark' }),
  }));
  await page.context().close();
  return {
    overflow,
    problems: { light: readings.light.problems, dark: readings.dark.problems },
    violations: { light: readings.light.violations, dark: readings.dark.violations },
    ...(fold ? { fold } : {}),
  };
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
  for (const width of screenWidths) {
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
