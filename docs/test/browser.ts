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
const problemsSince = (problems: PageProblems, from: PageProblems): PageProblems => ({
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

/** A copy of what was recorded so far, for `problemsSince`. */
export const problemsSoFar = (problems: PageProblems): PageProblems => ({
  consoleErrors: [...problems.consoleErrors],
  failedRequests: [...problems.failedRequests],
  externalRequests: [...problems.externalRequests],
});

/** Shows a page in `scheme` as the system setting changes (the site follows it by CSS and its theme script). */
async function showScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.locator(`html[data-theme="${scheme}"]`).waitFor({ state: 'attached' });
}

/**
 * Reads a page in the light scheme with `read`, then switches it to the dark scheme as the system
 * setting changes and reads it again: each scheme's reading, with the problems recorded while the
 * page showed that scheme (the light one's counted from `since`, by default from the page's start).
 */
export async function readInEachScheme<T>(
  page: Page,
  problems: PageProblems,
  read: (scheme: Scheme) => Promise<T>,
  since: PageProblems = { consoleErrors: [], failedRequests: [], externalRequests: [] },
): Promise<Record<Scheme, T & { problems: PageProblems }>> {
  const readings = {} as Record<Scheme, T & { problems: PageProblems }>;
  let from = since;
  for (const scheme of schemes) {
    await showScheme(page, scheme);
    readings[scheme] = { ...(await read(scheme)), problems: problemsSince(problems, from) };
    from = problemsSoFar(problems);
  }
  return readings;
}

/** A phone's screen (CSS pixels), as the docs are checked on. */
export const phone = { width: 390, height: 844 };

/** The screen widths no page may be wider than (CSS pixels). */
export const screenWidths = [360, 390, 768] as const;

/** How much wider than the screen the page is, once the page has laid out a frame (≤ 0: it fits). */
const overflow = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => resolve(document.documentElement.scrollWidth - window.innerWidth)),
      ),
  );

/**
 * Resizes the page to each of `screenWidths` (800 px high, the phone's own height at its width)
 * and records in `seen` how much wider than the screen it is at each (the most seen, when `seen`
 * already has a width); leaves the page at the phone's screen.
 */
export async function measureOverflow(page: Page, seen: Map<number, number>): Promise<void> {
  for (const width of [...screenWidths, phone.width]) {
    await page.setViewportSize({ width, height: width === phone.width ? phone.height : 800 });
    seen.set(width, Math.max(seen.get(width) ?? Number.NEGATIVE_INFINITY, await overflow(page)));
  }
}

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
 * The axe-core rules whose outcome depends on the colours: contrast, and links told from the text
 * around them by colour alone.
 */
const colourRules = ['color-contrast', 'link-in-text-block'];

/**
 * The site's header, which changes with the scheme and the screen more than colours and layout
 * do: its toggle shows the label of what it will do ("Light mode" in place of "Dark mode"), and
 * its search button hides its key hint on a small screen. A partial scan runs every rule over it.
 */
const siteHeader = 'header.site';

/**
 * The page's style rules under `[data-theme="dark"]` that set anything but a colour outside
 * `siteHeader` (read from the page's own style sheets, Redoc's included): what would make
 * a dark scheme scan of the colour rules alone miss something. Each as `selector { property }`.
 */
const nonColourDarkRules = (page: Page) =>
  page.evaluate((exempt) => {
    const colourProperty =
      /^(color|color-scheme|accent-color|caret-color|fill|stroke|box-shadow|text-shadow|text-decoration-color|outline-color|border(-(top|right|bottom|left|block|inline)(-(start|end))?)?-color|background(-.+)?)$/;
    const found: string[] = [];
    const visit = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if ('cssRules' in rule && rule.cssRules) visit(rule.cssRules as CSSRuleList);
        if (!(rule instanceof CSSStyleRule) || !rule.selectorText.includes('[data-theme="dark"]')) continue;
        for (const property of rule.style) {
          const value = rule.style.getPropertyValue(property).trim();
          const colour = property.startsWith('--')
            ? CSS.supports('color', value)
            : colourProperty.test(property);
          const exempted = rule.selectorText.split(',').every((selector) => selector.includes(exempt));
          if (!colour && !exempted) found.push(`${rule.selectorText} { ${property} }`);
        }
      }
    };
    for (const sheet of document.styleSheets) visit(sheet.cssRules);
    return found;
  }, siteHeader);

/**
 * The axe-core rules (of those a full scan runs) whose outcome can change with the screen's size
 * when the DOM does not: each reads the layout (boxes, scroll sizes) or a computed style other than
 * `display`, `visibility` and `content-visibility`. Found by running each rule of axe-core 4.14.1
 * alone on the references, a guide and a changelog with the browser's layout and style reads
 * wrapped: every other rule read only the DOM, those three properties, and the window's size for
 * its report's metadata; in axe's source, those rules compare `display` with `none` only (its
 * other uses, block and flex tests, serve the colour, link and target rules). `axeVersion` is the
 * version this was read from; the layout scan refuses another one (re-run that survey on an upgrade).
 */
const layoutRules = [
  'color-contrast',
  'link-in-text-block',
  'avoid-inline-spacing',
  'label-content-name-mismatch',
  'landmark-one-main',
  'page-has-heading-one',
  'scrollable-region-focusable',
  'skip-link',
  'th-has-data-cells',
];
const axeVersion = '4.14.1';

/**
 * A digest of what the rules outside `layoutRules` read: every element outside the site's header
 * (and scripts aside: the scans add their own) with its attributes but `style`,
 * whether its computed `display` is `none` (all those rules read it for; a table laid out as
 * blocks on a phone is read the same), its computed `visibility` and `content-visibility`, and
 * every text. Equal digests before and after a resize mean those rules see the same page outside
 * the header.
 */
export const domDigest = (page: Page): Promise<string> =>
  page.evaluate(async (header) => {
    const parts: string[] = [];
    const skipped = (node: Node) =>
      node.nodeName === 'SCRIPT' || (node instanceof Element && node.matches(header));
    const walker = document.createTreeWalker(
      document.documentElement,
      NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
      {
        acceptNode: (node) => (skipped(node) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
      },
    );
    for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
      if (!(node instanceof Element)) {
        parts.push(`"${node.nodeValue}"`);
        continue;
      }
      const style = getComputedStyle(node);
      // The style attribute counts by the computed values below (a script may set layout in it).
      const attributes = [...node.attributes]
        .filter((attribute) => attribute.name !== 'style')
        .map((attribute) => `${attribute.name}=${attribute.value}`);
      parts.push(
        `<${node.nodeName} ${attributes.join(' ')} ${style.display === 'none'} ${style.visibility} ${style.contentVisibility}>`,
      );
    }
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parts.join('\n')));
    return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  }, siteHeader);

/** Which rules a scan runs (see `seriousAccessibilityViolations`). */
export type ScanScope =
  | { only?: undefined }
  | { only: 'colours' }
  /** `fullScanOf`: the `domDigest` of the page when every rule ran over it. */
  | { only: 'layout'; fullScanOf: string };

/** A violation of a condition a partial scan stands on, which makes it stand for a full one. */
const broken = (rule: string, help: string, targets: string[]): AccessibilityViolation[] =>
  targets.length ? [{ rule, impact: 'serious', help, targets }] : [];

/**
 * Runs axe-core (served from node_modules, injected into the page) and returns the serious and
 * critical violations, minus the `known` ones. By default every rule runs over the whole document.
 * Two partial scans stand for a full one, each checking the condition it stands on:
 * - `only: 'colours'`, a page scanned in the light scheme and switched to the dark one: the dark
 *   scheme changes colours and the header's toggle label only (checked in the page's style sheets),
 *   so the colour rules run over the whole document and every other rule over the header.
 * - `only: 'layout'`, a page scanned in full and then resized (a desktop page shown on a phone): if
 *   the DOM and what is hidden are as they were outside the header (`domDigest` equals
 *   `fullScanOf`), only the rules that read the layout (`layoutRules`) can find something new
 *   there, so they run over the whole document and every other rule over the header; if not (Redoc
 *   hides its sidebar and shows a menu button on a phone), every rule runs over the whole document.
 */
export async function seriousAccessibilityViolations(
  page: Page,
  known: readonly KnownViolation[] = [],
  scope: ScanScope = {},
): Promise<AccessibilityViolation[]> {
  const notColour = scope.only === 'colours' ? await nonColourDarkRules(page) : [];
  const only =
    scope.only === 'layout' && (await domDigest(page)) !== scope.fullScanOf ? undefined : scope.only;
  await page.addScriptTag({ path: axeSource });
  const { violations, version } = await page.evaluate(
    async ({ only, colourRules, layoutRules, header }) => {
      interface AxeResults {
        violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
      }
      const axe = (
        window as unknown as {
          axe: { version: string; run: (context: unknown, options: object) => Promise<AxeResults> };
        }
      ).axe;
      const options = { resultTypes: ['violations'] };
      const partial = only === 'colours' ? colourRules : layoutRules;
      // The header's run leaves out the rules the document's run has just run over it as well.
      const others = {
        ...options,
        rules: Object.fromEntries(partial.map((rule) => [rule, { enabled: false }])),
      };
      const results = only
        ? [
            await axe.run(document, { ...options, runOnly: { type: 'rule', values: partial } }),
            ...(document.querySelector(header) ? [await axe.run({ include: [[header]] }, others)] : []),
          ]
        : [await axe.run(document, options)];
      return {
        version: axe.version,
        violations: results.flatMap((result) =>
          result.violations.map((violation) => ({
            rule: violation.id,
            impact: violation.impact ?? 'unknown',
            help: violation.help,
            targets: violation.nodes.map((node) => node.target.join(' ')),
          })),
        ),
      };
    },
    { only, colourRules, layoutRules, header: siteHeader },
  );
  return [
    ...broken(
      'dark-scheme-changes-colours-only',
      'The dark scheme sets more than colours, so its scan must run every rule',
      notColour,
    ),
    ...broken(
      'layout-rules-read-from-this-axe',
      `The layout rules were read from axe-core ${axeVersion}: survey them again`,
      only === 'layout' && version !== axeVersion ? [`axe-core ${version}`] : [],
    ),
    ...violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        ...violation,
        targets: violation.targets.filter(
          (target) => !known.some((entry) => entry.rule === violation.rule && entry.target.test(target)),
        ),
      }))
      .filter((violation) => violation.targets.length > 0),
  ];
}
