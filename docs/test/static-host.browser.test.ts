// docs/dist works from any static file server: served by Python's plain `http.server` (no route of
// ours, no compression, no relay), a reference's "Get a demo token" runs the standard OAuth
// authorization-code flow with PKCE in Chromium through the redirect page shipped in docs/dist, against the
// admin mock the reader picked, and the console's request with that token gets a 200. The
// base-URL selector offers the local mock, a hosted sandbox and the reader's mall.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { startMockServers } from '@mall-api/mock-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from './browser.js';
import { startPlainStaticServer } from './plain-static-server.mjs';

const dist = join(import.meta.dirname, '..', 'dist');
let browser: Browser;
let plain: { url: string; close: () => void };
let served: Awaited<ReturnType<typeof startMockServers>>;
const mockUrl = (api: string) => served.mocks.find((mock) => mock.api === api)?.url ?? '';

beforeAll(async () => {
  plain = await startPlainStaticServer(dist);
  served = await startMockServers({ ports: { collection: 0, admin: 0, analytics: 0 }, sandbox: { seed: 1 } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  plain?.close();
  await served?.close();
});

describe('docs/dist on a plain static server', { timeout: 90_000 }, () => {
  it('gets a demo token through the shipped redirect page and sends a request with it', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${plain.url}/admin/index.html#operation/listProducts`, { waitUntil: 'networkidle' });
    await page.locator('[id="operation/listProducts"] button.try-it').click();
    const dialog = page.locator('dialog.console');
    // The dialog opens once the console's data is in, which on a loaded machine may wait behind
    // Redoc's start-up (as in console.browser.test.ts): the test waits for its first option.
    const sendTo = dialog.getByLabel('Send to').locator('option');
    await sendTo.first().waitFor({ state: 'attached', timeout: 80_000 });
    const options = await sendTo.allTextContents();
    expect(options).toEqual([
      'Local mock (npm start)',
      'Hosted sandbox (a mock you run elsewhere)',
      'Your mall',
    ]);
    await dialog.getByLabel('Send to').selectOption({ label: 'Your mall' });
    await expect(dialog.getByLabel('Base URL').inputValue()).resolves.toBe('https://yourmall.cafe24api.com');
    await dialog.getByLabel('Send to').selectOption({ label: 'Hosted sandbox (a mock you run elsewhere)' });
    await dialog.getByLabel('Base URL').fill(mockUrl('admin'));
    await dialog.getByLabel('OAuth server').fill(mockUrl('admin'));
    // The flow uses PKCE: the authorize request carries an S256 challenge, the token request its verifier.
    const sent: { authorize?: URL; tokenForm?: URLSearchParams } = {};
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v2/oauth/authorize') sent.authorize = url;
      if (url.pathname === '/api/v2/oauth/token')
        sent.tokenForm = new URLSearchParams(request.postData() ?? '');
    });
    const popup = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Get a demo token' }).click();
    // The sign-in window passes through the mock's authorize and lands on the site's own page.
    // The window can close before a 'close' listener could be attached, so the console's status is
    // the signal, and the window is asserted closed after it.
    const signIn = await popup;
    await dialog
      .locator('.console-status', { hasText: 'Demo token for mall.read_product kept in this tab only.' })
      .waitFor();
    await expect.poll(() => signIn.isClosed()).toBe(true);
    expect(sent.authorize?.searchParams.get('code_challenge_method')).toBe('S256');
    const verifier = sent.tokenForm?.get('code_verifier') ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.authorize?.searchParams.get('code_challenge')).toBe(
      createHash('sha256').update(verifier).digest('base64url'),
    );
    const token = await dialog.locator('input[type="password"]').inputValue();
    expect(token.length).toBeGreaterThan(10);
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(
      dialog.locator('.console-http-status', { hasText: /^\d{3}/ }).textContent(),
    ).resolves.toMatch(/^200 OK/);
    await expect(dialog.locator('pre.console-body').textContent()).resolves.toContain('"product_no"');
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.externalRequests).toEqual([]);
    await page.close();
  });
});
