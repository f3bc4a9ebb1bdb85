// How Redoc renders a path template, in a real headless Chromium: `/categories/{category_no}`
// shows with its underscore. Redoc puts the path in a box one line high that clips what is below
// the line; reference.css gives it room (see there), and this test catches a Redoc upgrade that
// undoes it. The path is found by its text, not by Redoc's generated class, so the test outlives a
// rename of that class; at line-height 1 the underscore's line is clipped and the test fails.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import { launchChromium, openWatchedPage } from './browser.js';

let browser: Browser;
let site: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  site = await startDocsServer({ root: join(import.meta.dirname, '..', 'dist'), port: 0 });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('a path template in a reference', { timeout: 60_000 }, () => {
  it('shows /categories/{category_no} with its underscore, the text not clipped by its box', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/admin/index.html#operation/getCategory`, { waitUntil: 'networkidle' });
    const operation = page.locator('[id="operation/getCategory"]');
    await operation.waitFor({ timeout: 30_000 });
    const path = await operation.evaluate((node) => {
      const span = [...node.querySelectorAll('span')].find(
        (element) => element.children.length === 0 && element.textContent?.startsWith('/api/'),
      );
      if (!span) return undefined;
      const text = document.createRange();
      text.selectNodeContents(span);
      return {
        text: span.textContent,
        textBottom: text.getBoundingClientRect().bottom,
        boxBottom: span.getBoundingClientRect().bottom,
        clipped: span.scrollHeight > span.clientHeight,
      };
    });
    expect(path?.text).toBe('/api/v2/admin/categories/{category_no}');
    expect(path?.clipped).toBe(false);
    expect(path?.textBottom).toBeLessThanOrEqual((path?.boxBottom ?? 0) + 0.5);
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
    await page.close();
  });
});
