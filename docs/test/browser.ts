// Test support: Debian's Chromium driven by playwright-core (never a downloaded browser), a page
// that records console errors and warnings, failed requests and any request that leaves localhost, and an
// accessibility scan with axe-core injected from node_modules.
import { createRequire } from 'node:module';
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
  /** Console errors and warnings (a warning is a problem too: Redoc warns of a bad schema so). */
  consoleErrors: string[];
  failedRequests: string[];
  externalRequests: string[];
}

/** The problems recorded since `from` was taken (what the lists gained since then). */
export const problemsSince = (problems: PageProblems, from: PageProblems): PageProblems => ({
  consoleErrors: problems.consoleErrors.slice(from.consoleErrors.length),
  failedRequests: problems.failedRequests.slice(from.failedRequests.length),
  externalRequests: problems.externalRequests.slice(from.externalRequests.length),
});

/**
 * Makes Redoc live on a reference page as a reader does: Redoc starts when one of its own
 * controls is first used, so this taps an unselected code-sample tab of `operationId` (the first
 * operation's when not given) and waits, without timing it, until Redoc is live and has answered
 * that tap (the tab selected). Resolves to whether the tab was selected.
 */
export async function tapRedocControl(page: Page, operationId?: string): Promise<boolean> {
  const operation = operationId ? `[id="operation/${operationId}"]` : '[id^="operation/"]';
  const tab = page.locator(`#redoc ${operation} [role="tab"][aria-selected="false"]`).first();
  await tab.evaluate((element) => element.setAttribute('data-test-tab', ''));
  await tab.click();
  await page.locator('#redoc[data-redoc-ready]').waitFor({ state: 'attached', timeout: 240_000 });
  const used = page.locator('[data-test-tab]');
  await page
    .waitForFunction(
      () => document.querySelector('[data-test-tab]')?.getAttribute('aria-selected') === 'true',
      null,
      { timeout: 60_000 },
    )
    .catch(() => undefined);
  return (await used.getAttribute('aria-selected')) === 'true';
}

/**
 * Lays out every operation of a reference, as a reader scrolling through it would have them: the
 * page's HTML carries the first operations and puts the rest in once loaded (waited for here,
 * `data-reference-complete`), and leaves the ones off screen, and an operation's blocks off screen,
 * unrendered (`content-visibility: auto`), and a check of the whole page — its width, axe-core's
 * scan — is to see them all.
 */
export async function renderEveryOperation(page: Page): Promise<void> {
  await page.locator('#redoc[data-reference-complete]').waitFor({ state: 'attached', timeout: 120_000 });
  await page.addStyleTag({
    content:
      '#redoc [data-section-id^="operation/"], #redoc [data-section-id^="operation/"] div { content-visibility: visible !important; }',
  });
}

/** The site's colour schemes. */
export type Scheme = 'light' | 'dark';
export const schemes: Scheme[] = ['light', 'dark'];

/**
 * Reads a page opened in the light scheme with `read`, then switches it to the dark scheme as the
 * system setting changes (the site follows it by CSS and its theme script) and reads it again:
 * each scheme's reading, with the problems recorded while the page showed that scheme.
 */
export async function readInEachScheme<T>(
  page: Page,
  problems: PageProblems,
  read: (scheme: Scheme) => Promise<T>,
): Promise<Record<Scheme, T & { problems: PageProblems }>> {
  const readings = {} as Record<Scheme, T & { problems: PageProblems }>;
  let from: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] };
  for (const scheme of schemes) {
    if (scheme === 'dark') {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    }
    readings[scheme] = { ...(await read(scheme)), problems: problemsSince(problems, from) };
    from = {
      consoleErrors: [...problems.consoleErrors],
      failedRequests: [...problems.failedRequests],
      externalRequests: [...problems.externalRequests],
    };
  }
  return readings;
}

/** A phone's screen (CSS pixels), as the docs are checked on. */
export const phone = { width: 390, height: 844 };

/**
 * Opens a page that records its problems, in the given colour scheme (light by default) and
 * viewport (a 1280×900 desktop by default).
 */
export async function openWatchedPage(
  browser: Browser,
  colorScheme: 'light' | 'dark' = 'light',
  viewport: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage({ viewport, colorScheme });
  // A loaded CI machine can take longer than Playwright's 30 s default to load a reference; the
  // tests wait for pages, they do not time them.
  page.setDefaultNavigationTimeout(120_000);
  const problems: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.consoleErrors.push(`${message.type()}: ${message.text()}`);
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

/** One accessibility violation found by axe-core, reduced to what a failure message needs. */
export interface AccessibilityViolation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** A violation axe reports that the page cannot fix, matched by rule and element. */
export interface KnownViolation {
  rule: string;
  /** Matches the CSS selector axe reports for the element. */
  target: RegExp;
  /** Why it is not fixed here. */
  because: string;
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Runs axe-core (served from node_modules, injected into the page) over the whole document and
 * returns the serious and critical violations, minus the `known` ones.
 */
export async function seriousAccessibilityViolations(
  page: Page,
  known: readonly KnownViolation[] = [],
): Promise<AccessibilityViolation[]> {
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }
    ).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      ...violation,
      targets: violation.targets.filter(
        (target) => !known.some((entry) => entry.rule === violation.rule && entry.target.test(target)),
      ),
    }))
    .filter((violation) => violation.targets.length > 0);
}
