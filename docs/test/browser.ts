// Test support: Debian's Chromium driven by playwright-core (never a downloaded browser), with a
// page that records console errors, failed requests and any request that leaves localhost.
import { type Browser, chromium, type Page } from 'playwright-core';

/** Launches /usr/bin/chromium headless with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What went wrong while a page was open. */
export interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
  externalRequests: string[];
}

/** Opens a page that records its problems. */
export async function openWatchedPage(browser: Browser): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage();
  const problems: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(error.message));
  page.on('requestfailed', (request) => problems.failedRequests.push(request.url()));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (
      !['127.0.0.1', 'localhost'].includes(url.hostname) &&
      !['data:', 'blob:', 'about:'].includes(url.protocol)
    ) {
      problems.externalRequests.push(request.url());
    }
  });
  return { page, problems };
}
