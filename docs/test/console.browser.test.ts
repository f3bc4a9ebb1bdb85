// The site's interactive parts in a real headless Chromium, against real mocks: the "Try it"
// console of a reference sends a request to the mock and shows its 200 with the rate-limit
// headers, refuses a bad parameter before sending (naming it) and, sent anyway, shows the mock's
// 422; "Get a demo token" runs the OAuth flow through the site's redirect page and keeps the
// token in sessionStorage only; the search finds operations by field name from `/` and Ctrl-K; the dark
// mode follows the system and the toggle (remembered), on the landing page and in Redoc (by CSS
// alone: the reference is not rendered again); and no
// page logs a console error or requests anything outside localhost.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startMockServers } from '@mall-api/mock-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import { launchChromium, openWatchedPage, type PageProblems, phone, tapRedocControl } from './browser.js';

const docsRoot = join(import.meta.dirname, '..');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };
let served: Awaited<ReturnType<typeof startMockServers>>;
const mockUrl = (api: string) => served.mocks.find((mock) => mock.api === api)?.url ?? '';

beforeAll(async () => {
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  // As `npm start` serves them: the sandbox mall of seed 1 behind every mock.
  served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 }, sandbox: { seed: 1 } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await served?.close();
});

const noProblems: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] };

/** Opens the console of `operationId` on the reference of `api`, pointed at the test's mock. */
async function openConsole(page: Page, api: string, operationId: string) {
  await page.goto(`${site.url}/${api}/index.html#operation/${operationId}`, { waitUntil: 'load' });
  await page.locator(`[id="operation/${operationId}"] button.try-it`).click();
  const dialog = page.locator('dialog.console');
  // The button answers before Redoc is live; the dialog opens once the console's data is in, which
  // on a loaded machine may wait behind Redoc's start-up: the test waits for it.
  await dialog.getByLabel('Base URL').fill(mockUrl(api), { timeout: 80_000 });
  return dialog;
}

describe('the Try it console', { timeout: 90_000 }, () => {
  it('sends the pre-filled request to the mock and shows its 200, headers and body', async () => {
    const { page, problems } = await openWatchedPage(browser);
    const dialog = await openConsole(page, 'collection', 'listProducts');
    // Pre-filled from the spec's example of the required parameter.
    const data = JSON.parse(await readFile(join(docsRoot, 'dist', 'collection', 'console.json'), 'utf8')) as {
      operations: { operationId: string; parameters: { name: string; example: string }[] }[];
    };
    const example = data.operations
      .find((operation) => operation.operationId === 'listProducts')
      ?.parameters.find((parameter) => parameter.name === 'collection_product_category')?.example;
    expect(example).toMatch(/^C\d+/);
    await expect(dialog.locator('input[name="collection_product_category"]').inputValue()).resolves.toBe(
      example,
    );
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(
      dialog.locator('.console-http-status', { hasText: /^\d{3}/ }).textContent(),
    ).resolves.toMatch(/^200 OK/);
    const limitRow = dialog.locator('table.console-headers tr.rate-limit', {
      hasText: 'x-ratelimit-remaining',
    });
    await expect(limitRow.textContent()).resolves.toMatch(/x-ratelimit-remaining\s*\d+/);
    await expect(dialog.locator('pre.console-body').textContent()).resolves.toContain('"products"');
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it('refuses a bad parameter before sending, then shows the mock’s 422 when sent anyway', async () => {
    const { page, problems } = await openWatchedPage(browser);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const dialog = await openConsole(page, 'collection', 'listShops');
    await dialog.locator('input[name="limit"]').fill('101');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog.locator('.console-problems').textContent()).resolves.toContain(
      'limit must be <= 100',
    );
    expect(requests.filter((url) => url.startsWith(mockUrl('collection')))).toEqual([]);
    await dialog.getByRole('button', { name: 'Send anyway' }).click();
    await expect(
      dialog.locator('.console-http-status', { hasText: /^\d{3}/ }).textContent(),
    ).resolves.toMatch(/^422/);
    await expect(dialog.locator('pre.console-body').textContent()).resolves.toContain('limit');
    // Chromium reports an HTTP error status of a fetch as a console message of its own; the page
    // itself logs nothing.
    expect(problems.consoleErrors).toEqual([
      'error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    expect(problems.failedRequests).toEqual([]);
    expect(problems.externalRequests).toEqual([]);
    await page.close();
  });

  it('fits a phone’s screen and brings the answer into view', async () => {
    const { page, problems } = await openWatchedPage(browser, 'light', phone);
    const dialog = await openConsole(page, 'collection', 'listProducts');
    // Nothing in the dialog is wider than the dialog, and the dialog no wider than the screen.
    const widths = await dialog.evaluate((element) => ({
      dialog: element.getBoundingClientRect().right,
      overflow: element.scrollWidth - element.clientWidth,
      widest: Math.max(
        ...[...element.querySelectorAll('fieldset, input, select, textarea')].map(
          (child) => child.getBoundingClientRect().right,
        ),
      ),
    }));
    expect(widths.dialog).toBeLessThanOrEqual(phone.width);
    expect(widths.overflow).toBe(0);
    expect(widths.widest).toBeLessThanOrEqual(widths.dialog);
    await dialog.getByRole('button', { name: 'Send request' }).click();
    const status = dialog.locator('.console-http-status');
    await expect(status.textContent()).resolves.toMatch(/^200/);
    // The answer is on screen and has the focus.
    const box = await status.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= phone.height).toBe(true);
    await expect(
      page.evaluate(() => document.activeElement?.classList.contains('console-response')),
    ).resolves.toBe(true);
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it('gets a demo token for the operation’s scope, keeps it in sessionStorage only, and sends with it', async () => {
    const { page, problems } = await openWatchedPage(browser);
    const dialog = await openConsole(page, 'admin', 'listProducts');
    await dialog.getByLabel('OAuth server').fill(mockUrl('admin'));
    await dialog.getByRole('button', { name: 'Get a demo token' }).click();
    await dialog
      .locator('.console-status', { hasText: 'Demo token for mall.read_product kept in this tab only.' })
      .waitFor();
    const token = await dialog.locator('input[type="password"]').inputValue();
    expect(token.length).toBeGreaterThan(10);
    const storage = await page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.values(localStorage),
    }));
    expect(storage.session).toContain(token);
    expect(storage.local).not.toContain(token);
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(
      dialog.locator('.console-http-status', { hasText: /^\d{3}/ }).textContent(),
    ).resolves.toMatch(/^200 OK/);
    await expect(
      dialog.locator('table.console-headers tr.rate-limit', { hasText: 'x-api-call-limit' }).count(),
    ).resolves.toBe(1);
    expect(problems).toEqual(noProblems);
    await page.close();
  });
});

describe('the search', { timeout: 60_000 }, () => {
  it('opens with / and finds operations by a field name, and with Ctrl-K', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/guides/getting-started.html`, { waitUntil: 'load' });
    await page.keyboard.press('/');
    const dialog = page.locator('dialog.search');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await page.keyboard.type('bundle_product_components');
    const first = dialog.locator('.search-results li a').first();
    await first.waitFor();
    await expect(first.getAttribute('href')).resolves.toMatch(/\/admin\/index\.html#operation\/\w*[Bb]undle/);
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
    await page.keyboard.press('Control+k');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await page.keyboard.type('leaky bucket');
    await expect(
      dialog.locator('.search-results li a', { hasText: /admin/i }).first().getAttribute('href'),
    ).resolves.toContain('guides/rate-limits.html#');
    await dialog.locator('.search-results li a').first().click();
    await page.waitForURL(/guides\/rate-limits\.html#/);
    expect(problems).toEqual(noProblems);
    await page.close();
  });

  it('counts every match, lists a topic’s guide, and follows the arrows and Enter', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/index.html`, { waitUntil: 'load' });
    await page.keyboard.press('/');
    const dialog = page.locator('dialog.search');
    await page.keyboard.type('limit');
    const status = dialog.locator('.search-status');
    await status.filter({ hasText: /result/ }).waitFor();
    const [, total] = /^(\d+) results, the first 20 shown$/.exec((await status.textContent()) ?? '') ?? [];
    expect(Number(total)).toBeGreaterThan(20);
    await expect(dialog.locator('.search-results li').count()).resolves.toBe(20);
    // The pagination guide, whose topic is limit and offset, is among those shown.
    await expect(
      dialog.locator('.search-results li a', { hasText: /^Pagination and offset caps$/ }).count(),
    ).resolves.toBeGreaterThan(0);
    const option = (position: number) => dialog.locator('.search-results li').nth(position);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(option(1).getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('ArrowUp');
    await expect(option(0).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(option(1).getAttribute('aria-selected')).resolves.toBe('false');
    const target = (await option(0).locator('a').getAttribute('href')) ?? '';
    await page.keyboard.press('Enter');
    await page.waitForURL(target);
    await expect(dialog.isVisible()).resolves.toBe(false);
    expect(problems).toEqual(noProblems);
    await page.close();
  });
});

describe('the dark mode', { timeout: 60_000 }, () => {
  const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
  const background = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => getComputedStyle(element).backgroundColor);

  it('follows the system setting, and the toggle switches and remembers it', async () => {
    const page = await browser.newPage({ colorScheme: 'dark' });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${site.url}/index.html`, { waitUntil: 'load' });
    await expect(theme(page)).resolves.toBe('dark');
    await expect(background(page, 'body')).resolves.toBe('rgb(17, 21, 29)');
    // The toggle is named after what it does: to light while dark is on, and back.
    await expect(page.getByRole('button', { name: 'Dark mode' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Light mode' }).click();
    await expect(theme(page)).resolves.toBe('light');
    await expect(page.getByRole('button', { name: 'Light mode' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Dark mode' }).count()).resolves.toBe(1);
    await expect(background(page, 'body')).resolves.toBe('rgb(255, 255, 255)');
    await page.goto(`${site.url}/guides/index.html`, { waitUntil: 'load' });
    await expect(theme(page)).resolves.toBe('light');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches the Redoc reference to its dark colours by CSS alone: same nodes, same place, no request', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${site.url}/collection/index.html#operation/listStoreProducts`, {
      waitUntil: 'load',
    });
    // Redoc starts on the first use of one of its controls; the toggle is checked once it is live.
    await expect(tapRedocControl(page, 'listStoreProducts')).resolves.toBe(true);
    const sidebar = '#redoc .menu-content';
    const heading = '[id="operation/listStoreProducts"] h2';
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).color);
    const [lightSidebar, lightHeading] = [await background(page, sidebar), await colour(heading)];
    // Mark Redoc's rendered nodes: a new rendering would replace them.
    await page.evaluate(() => {
      for (const element of [
        document.querySelector('#redoc > *'),
        document.querySelector('[data-section-id]'),
      ])
        (element as unknown as { keptAcrossToggle?: boolean }).keptAcrossToggle = true;
    });
    const place = () => page.evaluate(() => ({ hash: location.hash, y: Math.round(window.scrollY) }));
    const before = await place();
    expect(before.y).toBeGreaterThan(0);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect(theme(page)).resolves.toBe('dark');
    await expect(background(page, sidebar)).resolves.toBe('rgb(22, 27, 38)');
    await expect(colour(heading)).resolves.not.toBe(lightHeading);
    expect(lightSidebar).toBe('rgb(250, 250, 250)');
    await expect(
      page.evaluate(() =>
        [document.querySelector('#redoc > *'), document.querySelector('[data-section-id]')].map(
          (element) => (element as unknown as { keptAcrossToggle?: boolean } | null)?.keptAcrossToggle,
        ),
      ),
    ).resolves.toEqual([true, true]);
    await expect(place()).resolves.toEqual(before);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
