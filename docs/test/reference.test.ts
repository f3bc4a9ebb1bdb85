// The built site in a real headless Chromium: the landing page lists the APIs and links their
// references and specs; each Redoc reference shows every operation of its spec; no page logs a
// console error, fails a request, or requests anything outside localhost.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServer } from '../build/serve.mjs';
import { launchChromium, openWatchedPage } from './browser.js';

const docsRoot = join(import.meta.dirname, '..');
const artifacts = join(docsRoot, '..', 'test-results');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

const apis = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as {
  name: string;
  title: string;
}[];

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('landing page', () => {
  it('lists every API with links that resolve', async () => {
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/index.html`, { waitUntil: 'networkidle' });
    for (const api of apis) {
      await expect(page.getByRole('heading', { name: api.title }).count()).resolves.toBe(1);
      for (const href of [
        `${api.name}/index.html`,
        `specs/${api.name}.openapi.yaml`,
        `specs/${api.name}.openapi.json`,
      ]) {
        const response = await page.request.get(`${site.url}/${href}`);
        expect(response.status(), href).toBe(200);
      }
    }
    await page.screenshot({ path: join(artifacts, 'landing.png'), fullPage: true });
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
  });
});

describe.each(apis)('$name reference', (api) => {
  it('shows every operation of the spec with no console error and no request leaving localhost', async () => {
    const spec = JSON.parse(
      await readFile(join(docsRoot, 'dist', 'specs', `${api.name}.openapi.json`), 'utf8'),
    ) as {
      paths: Record<string, Record<string, { summary: string; operationId: string }>>;
    };
    const operations = Object.values(spec.paths).flatMap((item) => Object.values(item));
    const { page, problems } = await openWatchedPage(browser);
    await page.goto(`${site.url}/${api.name}/index.html`, { waitUntil: 'networkidle' });
    for (const operation of operations) {
      const heading = page.locator(`[id="operation/${operation.operationId}"] h2`);
      const text = await heading.textContent({ timeout: 10_000 });
      expect(text?.trim()).toBe(operation.summary);
    }
    await page.screenshot({ path: join(artifacts, `${api.name}-reference.png`) });
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
  });
});
