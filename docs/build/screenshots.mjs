#!/usr/bin/env node
// @ts-check
// `npm run screenshots -w docs`: regenerates the screenshots in docs/screenshots/ from the built
// site (run the docs build first): the collection reference's "Try it" console after a request to
// the local mock, in the light and the dark scheme, the admin console with a demo token, the
// admin reference and the landing page in the dark scheme, the search dialog, and on a phone
// (390×844) the admin reference and the authentication guide. Starts its own mocks and docs server on free ports and
// Debian's Chromium through playwright-core; stops them when done.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServers } from '@mall-api/mock-server';
import { chromium } from 'playwright-core';
import { startDocsServer } from './serve.mjs';

const docsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(docsRoot, 'screenshots');
await mkdir(folder, { recursive: true });

const served = await startMockServers({
  ports: { collection: 0, admin: 0, analytics: 0 },
  sandbox: { seed: 1 },
});
const site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
// A loaded machine answers slowly: wait rather than give up. The references are shot as a reader
// first sees them, prerendered (Redoc starts only when one of its own controls is used).
/** @param {import('playwright-core').Page} page */
const patient = (page) => {
  page.setDefaultTimeout(240_000);
  return page;
};
/** @param {string} api */
const mockUrl = (api) => served.mocks.find((mock) => mock.api === api)?.url ?? '';

try {
  for (const scheme of /** @type {const} */ (['light', 'dark'])) {
    const page = patient(
      await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme }),
    );
    await page.goto(`${site.url}/collection/index.html#operation/listShops`, { waitUntil: 'networkidle' });
    await page.locator('[id="operation/listShops"] button.try-it').click();
    const dialog = page.locator('dialog.console');
    await dialog.getByLabel('Base URL').fill(mockUrl('collection'));
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.locator('.console-http-status').waitFor();
    await page.screenshot({ path: join(folder, `console-${scheme}.png`) });
    await page.close();
  }
  const admin = patient(
    await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }),
  );
  await admin.goto(`${site.url}/admin/index.html#operation/listProducts`, { waitUntil: 'networkidle' });
  await admin.locator('[id="operation/listProducts"] button.try-it').click();
  const dialog = admin.locator('dialog.console');
  await dialog.getByLabel('Base URL').fill(mockUrl('admin'));
  await dialog.getByLabel('OAuth server').fill(mockUrl('admin'));
  await dialog.getByRole('button', { name: 'Get a demo token' }).click();
  await dialog.getByText('kept in this tab only').waitFor();
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await dialog.locator('.console-http-status').waitFor();
  await admin.screenshot({ path: join(folder, 'console-admin-dark.png') });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await admin.goto(`${site.url}/admin/index.html#operation/createBundleProduct`, {
    waitUntil: 'networkidle',
  });
  await admin.screenshot({ path: join(folder, 'reference-dark.png') });
  await admin.goto(`${site.url}/index.html`, { waitUntil: 'networkidle' });
  await admin.screenshot({ path: join(folder, 'landing-dark.png') });
  await admin.keyboard.press('/');
  await admin.keyboard.type('product_no');
  await admin.locator('dialog.search .search-results li').first().waitFor();
  await admin.screenshot({ path: join(folder, 'search-dark.png') });
  await admin.close();
  const phone = patient(
    await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'light' }),
  );
  await phone.goto(`${site.url}/admin/index.html`, { waitUntil: 'networkidle' });
  await phone.screenshot({ path: join(folder, 'reference-phone.png') });
  await phone.goto(`${site.url}/guides/authentication.html`, { waitUntil: 'networkidle' });
  await phone.screenshot({ path: join(folder, 'guide-phone.png') });
  await phone.close();
  process.stdout.write(`screenshots written to ${folder}\n`);
} finally {
  await browser.close();
  await site.close();
  await served.close();
}
