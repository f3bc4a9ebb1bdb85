// Every page of the built site on small screens, in a real headless Chromium: at 360, 390 and
// 768 px no page (landing page, guides and their index, changelogs, each reference once Redoc is
// live) is wider than the screen; on a phone a guide's title and first paragraph are above the
// fold; every page logs no console error or warning, in both colour schemes; and axe-core finds no
// serious or critical accessibility violation on a phone in the light and the dark scheme (the
// desktop scans are site.test.ts's and reference.test.ts's).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import { launchChromium, openWatchedPage, phone, seriousAccessibilityViolations } from './browser.js';
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

beforeAll(async () => {
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens `path`, waiting for a reference's Redoc to be live (hydrated). */
async function open(path: string, scheme: 'light' | 'dark', viewport: { width: number; height: number }) {
  const watched = await openWatchedPage(browser, scheme, viewport);
  await watched.page.goto(`${site.url}/${path}`, { waitUntil: 'networkidle' });
  // Hydrating a whole reference takes seconds on a loaded machine; the test waits, it does not time.
  if (references.includes(path))
    await watched.page.locator('#redoc[data-redoc-ready]').waitFor({ timeout: 150_000 });
  return watched;
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('no page is wider than the screen', { timeout: 240_000 }, () => {
  for (const width of [360, 768]) {
    it.each(pages)(`at ${width} px: %s`, async (path) => {
      const { page, problems } = await open(path, 'light', { width, height: 800 });
      await expect(overflow(page)).resolves.toBeLessThanOrEqual(0);
      expect(problems.consoleErrors).toEqual([]);
      await page.close();
    });
  }
});

describe('on a phone (390 × 844)', { timeout: 240_000 }, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it.each(pages)(
      `in the ${scheme} scheme, %s fits the screen, logs nothing and has no serious accessibility violation`,
      async (path) => {
        const { page, problems } = await open(path, scheme, phone);
        await expect(overflow(page)).resolves.toBeLessThanOrEqual(0);
        await expect(seriousAccessibilityViolations(page, redocKnownViolations)).resolves.toEqual([]);
        expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
        await page.close();
      },
    );
  }

  it.each(guides)('%s shows its title and first paragraph above the fold', async (path) => {
    const { page } = await open(path, 'light', phone);
    const bottom = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => element.getBoundingClientRect().bottom + window.scrollY);
    await expect(bottom('article.guide h1')).resolves.toBeLessThanOrEqual(phone.height);
    await expect(bottom('article.guide > p:not(.breadcrumb)')).resolves.toBeLessThanOrEqual(phone.height);
    await page.close();
  });
});
