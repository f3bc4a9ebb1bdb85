// Each Redoc reference of the built site in a real headless Chromium, in the light and the dark
// scheme, on a desktop and on a phone: it shows every operation and event of its spec, with the
// TypeScript, curl, Python and PHP samples and a "Try it" button on the operations; Redoc's script
// is not even fetched until one of its controls is used, and the tap that started it is answered
// once it is live; a code-sample tab shows its sample before Redoc is live (the stand-in) and
// after, the same code; the page's HTML carries the first operations and the rest follow it, each
// once, in order, without Redoc, and a deep link to one of them lands below the header; at 360,
// 390 and 768 px it is no wider than the screen, as it arrives and once Redoc is live; it logs no
// console error, fails no request and requests nothing outside localhost; and axe-core finds no
// serious or critical accessibility violation, on a desktop and on a phone, in each scheme.
// Each reference loads and starts (Redoc hydrates it, every operation laid out) once for all of
// that: read and scanned on a desktop in the light scheme (every rule), then the dark one; resized
// to each screen width; then scanned on a phone in the light scheme (every rule: Redoc shows other
// parts on a phone) and the dark one. A dark scheme scan stands for a full one by what it checks
// (see `seriousAccessibilityViolations`): the colour rules, and every rule over the header, all
// the dark scheme changes. The site file checks the other pages.
// A screenshot of the admin reference is kept in test-results/.
import { mkdir, readFile } from 'node:fs/promises';
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
  problemsSoFar,
  readInEachScheme,
  renderEveryOperation,
  type ScanScope,
  type Scheme,
  schemes,
  screenWidths,
  seriousAccessibilityViolations,
  tapRedocControl,
} from './browser.js';
import { redocKnownViolations } from './redoc-known-violations.js';

const docsRoot = join(import.meta.dirname, '..');
const artifacts = join(docsRoot, '..', 'test-results');
let browser: Browser;
let site: { url: string; close: () => Promise<void> };

const apis = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as { name: string }[];

interface Operation {
  operationId: string;
  path: string;
  summary: string;
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}

interface LoadedReference {
  problems: PageProblems;
  /** Operations with a "Try it" button. */
  tryIt: string[];
  operations: Operation[];
  /** The events of the spec's `webhooks`, each with its key as `path`. */
  events: Operation[];
  /** The operations shown: operationId → heading text, read once Redoc rendered. */
  shown: Map<string, string>;
  /** The axe-core scan, started once the page was read. */
  scan: Promise<AccessibilityViolation[]>;
  /** Whether Redoc's script was fetched before any of its controls was used. */
  redocBeforeUse: boolean;
  /** Whether the tab whose tap started Redoc was selected once Redoc was live. */
  tabAnswered: boolean;
}

/** What the live reference showed on a phone in one scheme. */
interface OnPhone {
  problems: PageProblems;
  scan: Promise<AccessibilityViolation[]>;
}

/** What one reference showed, desktop and phone, in each scheme. */
interface ReferenceReport {
  desktop: Record<Scheme, LoadedReference>;
  phone: Record<Scheme, OnPhone>;
  /** How much wider than the screen the live reference is, per screen width (≤ 0: it fits). */
  overflow: Map<number, number>;
}

/**
 * Scans the page with axe-core in `scope`, done before the page changes; a failure is its test's to
 * report.
 */
const scanned = async (
  page: Page,
  scope: ScanScope,
): Promise<{ scan: Promise<AccessibilityViolation[]> }> => {
  const scan = seriousAccessibilityViolations(page, redocKnownViolations, scope);
  await scan.catch(() => undefined);
  return { scan };
};

/**
 * Loads a reference once on a desktop, in the light scheme, starts Redoc, reads it and scans it,
 * then switches it to the dark scheme as the system setting changes (the reference follows it by
 * CSS alone) and scans again; then resizes it to each screen width, and scans it on a phone in
 * the light scheme and the dark one.
 */
async function loadReference(name: string): Promise<ReferenceReport> {
  const spec = JSON.parse(
    await readFile(join(docsRoot, 'dist', 'specs', `${name}.openapi.json`), 'utf8'),
  ) as {
    paths: Record<string, Record<string, Operation>>;
    webhooks?: Record<string, Record<string, Operation>>;
  };
  const { page, problems } = await openWatchedPage(browser, 'light');
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${site.url}/${name}/index.html`, { waitUntil: 'networkidle' });
  // The operations and their Try it buttons are in the prerendered HTML; Redoc starts only when a
  // control of its own is first used (a tab here), and goes live (hydrates), which on a loaded
  // machine takes a while: the test waits for it, it does not time it.
  const redocBeforeUse = scripts.some((path) => /\/assets\/redoc\.[0-9a-f]+\.js$/.test(path));
  const tabAnswered = await tapRedocControl(page);
  await renderEveryOperation(page);
  const tryIt = await page.$$eval('[id^="operation/"]:has(button.try-it)', (nodes) =>
    nodes.map((node) => node.id.replace(/^operation\//, '')),
  );
  const headings = await page.$$eval('[id^="operation/"] h2', (nodes) =>
    nodes.map((node) => [node.closest('[id^="operation/"]')?.id ?? '', node.textContent?.trim() ?? '']),
  );
  const operationsOf = (items: Record<string, Record<string, Operation>>) =>
    Object.entries(items).flatMap(([path, item]) =>
      Object.values(item).map((operation) => ({ ...operation, path })),
    );
  const operations = operationsOf(spec.paths);
  // The events (`webhooks`) are shown like operations, in their own section, without samples or Try it.
  const events = operationsOf(spec.webhooks ?? {});
  const shown = new Map(headings.map(([id, text]) => [(id ?? '').replace(/^operation\//, ''), text ?? '']));
  // Scanned with every rule in the light scheme, and in the dark one with the colour rules.
  const desktop = await readInEachScheme(page, problems, async (scheme) => {
    if (name === 'admin') await page.screenshot({ path: join(artifacts, `admin-reference-${scheme}.png`) });
    return {
      ...(await scanned(page, scheme === 'light' ? {} : { only: 'colours' })),
      tryIt,
      operations,
      events,
      shown,
      redocBeforeUse,
      tabAnswered,
    };
  });
  const afterDesktop = problemsSoFar(problems);
  const overflow = new Map<number, number>();
  await measureOverflow(page, overflow);
  // On the phone every rule in the light scheme (Redoc hides its sidebar and shows a menu button
  // there: not the page the desktop scan saw), the colour rules in the dark one.
  const onPhone = await readInEachScheme(
    page,
    problems,
    (scheme) => scanned(page, scheme === 'light' ? {} : { only: 'colours' }),
    afterDesktop,
  );
  await page.close();
  return { desktop, phone: onPhone, overflow };
}

// The three references load and are scanned side by side (one renderer process each), which keeps
// the suite's time close to that of the largest reference; each test reads its reference's report.
const reports = new Map<string, Promise<ReferenceReport>>();
beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  site = await startDocsServer({ root: join(docsRoot, 'dist'), port: 0 });
  browser = await launchChromium();
  for (const api of apis) reports.set(api.name, loadReference(api.name));
});
afterAll(async () => {
  await Promise.all([...reports.values()].map((report) => report.catch(() => undefined)));
  await browser?.close();
  await site?.close();
});

const reportOf = async (name: string): Promise<ReferenceReport> => {
  const report = await reports.get(name);
  if (!report) throw new Error(`the ${name} reference did not load`);
  return report;
};
const reference = async (name: string, scheme: Scheme = 'light'): Promise<LoadedReference> =>
  (await reportOf(name)).desktop[scheme];

// A test waits for its reference to be loaded, started and scanned, which takes a large reference
// minutes on a slow machine: give it room.
describe.each(apis)('the $name reference', { timeout: 900_000 }, (api) => {
  it('shows every operation and event of the spec under its summary', async () => {
    const { operations, events, shown } = await reference(api.name);
    for (const operation of operations)
      expect(shown.get(operation.operationId), operation.operationId).toBe(operation.summary);
    // Redoc marks an event's heading with a "Webhook" badge.
    for (const event of events)
      expect(shown.get(event.operationId), event.operationId).toBe(`${event.summary}  Webhook`);
    expect(shown.size).toBe(operations.length + events.length);
  });

  it('starts Redoc only when one of its controls is used, and answers that use once live', async () => {
    expect((await reference(api.name)).redocBeforeUse).toBe(false);
    expect((await reference(api.name)).tabAnswered).toBe(true);
  });

  it('offers a TypeScript, curl, Python and PHP sample on every operation', async () => {
    for (const operation of (await reference(api.name)).operations) {
      expect(
        operation['x-codeSamples']?.map((sample) => sample.label),
        operation.operationId,
      ).toEqual(['TypeScript', 'curl', 'Python', 'PHP']);
    }
  });

  it('offers "Try it" on every operation but the OAuth endpoints', async () => {
    const expected = (await reference(api.name)).operations
      .filter((operation) => !/\/oauth\/(authorize|token)$/.test(operation.path))
      .map((operation) => operation.operationId);
    expect(expected.length).toBeGreaterThan(4);
    expect((await reference(api.name)).tryIt.sort()).toEqual(expected.sort());
  });

  it.each(schemes)(
    'logs no console error, fails no request and requests nothing outside localhost (%s)',
    async (scheme) => {
      expect((await reference(api.name, scheme)).problems).toEqual({
        consoleErrors: [],
        failedRequests: [],
        externalRequests: [],
      });
    },
  );

  it.each(schemes)('has no serious or critical accessibility violation (axe-core, %s)', async (scheme) => {
    expect(await (await reference(api.name, scheme)).scan).toEqual([]);
  });

  it.each(screenWidths)('once Redoc is live, is no wider than the screen at %i px', async (width) => {
    expect((await reportOf(api.name)).overflow.get(width)).toBeLessThanOrEqual(0);
  });

  it.each(schemes)(
    'on a phone (390 × 844), in the %s scheme, logs nothing and has no serious accessibility violation',
    async (scheme) => {
      const onPhone = (await reportOf(api.name)).phone[scheme];
      expect(await onPhone.scan).toEqual([]);
      expect(onPhone.problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
    },
  );
});

describe('the code samples in a reference', () => {
  it('show the client call, the curl command, the Python and the PHP code in their tabs, before Redoc is live and after', async () => {
    const { page, problems } = await openWatchedPage(browser);
    // Redoc's script is held back until the tabs have been read without it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/redoc\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${site.url}/collection/index.html#operation/listProducts`, { waitUntil: 'load' });
    const operation = page.locator('[id="operation/listProducts"]');
    const tabs = [
      ['TypeScript', "await client.GET('/api/products'"],
      ['curl', "--url 'http://127.0.0.1:4010/api/products?collection_product_category="],
      ['Python', 'response = requests.get(url, headers=headers)'],
      ['PHP', 'curl_setopt_array($curl, ['],
    ] as const;
    /** Taps each tab and resolves to the code each showed, once its tab was selected. */
    const readTabs = async () => {
      const shown: string[] = [];
      for (const [tab] of tabs) {
        await operation.getByRole('tab', { name: tab }).click();
        await operation.locator('[role="tab"][aria-selected="true"]', { hasText: tab }).waitFor();
        shown.push((await operation.locator('[role="tabpanel"] pre').first().textContent()) ?? '');
      }
      return shown;
    };
    // Before Redoc is live, the stand-in answers each tab with its sample.
    const before = await readTabs();
    await expect(page.locator('#redoc[data-redoc-started]').count()).resolves.toBe(0);
    release();
    await page.locator('#redoc[data-redoc-ready]').waitFor({ state: 'attached', timeout: 240_000 });
    // Once live, Redoc has selected the tab tapped last (PHP), and answers the tabs itself.
    await expect(operation.getByRole('tab', { name: 'PHP' }).getAttribute('aria-selected')).resolves.toBe(
      'true',
    );
    const after = await readTabs();
    for (const [index, [tab, code]] of tabs.entries()) {
      expect(before[index], `${tab}, before Redoc is live`).toContain(code);
      expect(after[index], `${tab}, Redoc live`).toBe(before[index]);
    }
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
    await page.close();
  });
});

/** The operationIds a built reference page's HTML has, and those its rest.html has. */
async function sectionsOf(name: string): Promise<{ inPage: string[]; inRest: string[] }> {
  const ids = (html: string) =>
    [...html.matchAll(/ id="operation\/([^"]+)"/g)].map((match) => match[1] ?? '');
  return {
    inPage: ids(await readFile(join(docsRoot, 'dist', name, 'index.html'), 'utf8')),
    inRest: ids(await readFile(join(docsRoot, 'dist', name, 'rest.html'), 'utf8')),
  };
}

// Laying out a whole reference at each width takes a while on a loaded machine: give it room.
describe('a reference before Redoc is live, on a phone', { timeout: 240_000 }, () => {
  it.each(apis)(
    'carries its first operations in the HTML and puts in the rest once loaded, every operation once, no wider than the screen ($name)',
    async ({ name }) => {
      const { inPage, inRest } = await sectionsOf(name);
      expect(inPage.length).toBeGreaterThan(0);
      expect(inRest.length).toBeGreaterThan(inPage.length);
      const { page, problems } = await openWatchedPage(browser, 'light', phone);
      await page.goto(`${site.url}/${name}/index.html`, { waitUntil: 'load' });
      await renderEveryOperation(page);
      const shown = await page.$$eval('[id^="operation/"] h2', (nodes) =>
        nodes.map((node) => node.closest('[id^="operation/"]')?.id.replace(/^operation\//, '') ?? ''),
      );
      expect(shown).toEqual([...inPage, ...inRest]);
      expect(new Set(shown).size).toBe(shown.length);
      // As it arrives (Redoc not started), at each screen width.
      const overflow = new Map<number, number>();
      await measureOverflow(page, overflow);
      for (const width of screenWidths) expect(overflow.get(width), `${width} px`).toBeLessThanOrEqual(0);
      await expect(page.evaluate(() => 'Redoc' in window)).resolves.toBe(false);
      expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
      await page.close();
    },
  );

  it('lands a deep link to an operation not in the HTML below the header, and its menu goes to a section and lists its operations', async () => {
    const { page, problems } = await openWatchedPage(browser, 'light', phone);
    const deep = (await sectionsOf('collection')).inRest.at(-1);
    await page.goto(`${site.url}/collection/index.html#operation/${deep}`, { waitUntil: 'load' });
    await page.locator(`[id="operation/${deep}"]`).waitFor({ state: 'attached' });
    const below = (selector: string) =>
      page.evaluate((selector) => {
        const header = document.querySelector('header.site')?.getBoundingClientRect().bottom ?? 0;
        const top = document.querySelector(selector)?.getBoundingClientRect().top ?? Number.NaN;
        return Math.abs(top - header) <= 1;
      }, selector);
    await expect(below(`[id="operation/${deep}"]`)).resolves.toBe(true);
    await page.locator('#redoc .redoc-wrap > .menu-content + div').click();
    const menu = page.locator('#redoc .menu-content');
    await expect(menu.isVisible()).resolves.toBe(true);
    const entry = menu
      .locator('li[data-item-id^="tag/"]')
      .filter({ has: page.locator('ul') })
      .first();
    const id = (await entry.getAttribute('data-item-id')) ?? '';
    await entry.locator('label').first().click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe(`#${id}`);
    await expect(below(`[id="${id}"]`)).resolves.toBe(true);
    await expect(menu.isVisible()).resolves.toBe(false);
    await page.locator('#redoc .redoc-wrap > .menu-content + div').click();
    await expect(entry.locator('li[data-item-id*="/operation/"]').first().isVisible()).resolves.toBe(true);
    await expect(page.evaluate(() => 'Redoc' in window)).resolves.toBe(false);
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], externalRequests: [] });
    await page.close();
  });
});
