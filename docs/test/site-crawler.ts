// Test support: a link checker for the built site. Starting from the landing page it follows every
// internal `href` and `src` of every HTML page it reaches (over HTTP, from the docs server), and
// reports each link that does not answer 200, and each `#fragment` that names no element of its
// target page. On the Redoc references, which render in the browser, a fragment that names no
// element of the served HTML must be `#operation/<id>` or `#tag/<name>` of the spec they render.
// Links leaving the site are listed, not followed.

/** A link that does not resolve. */
export interface BrokenLink {
  from: string;
  href: string;
  reason: string;
}

/** What a crawl found. */
export interface CrawlReport {
  /** Site-relative paths of the HTML pages reached, in the order first reached. */
  pages: string[];
  /** Every internal URL checked (pages, assets, downloads), site-relative. */
  checked: string[];
  /** Links leaving the site (not followed). */
  external: string[];
  broken: BrokenLink[];
}

/** What a reference page's fragments may name: its operationIds and tag names. */
export type ReferenceAnchors = Map<string, { operations: Set<string>; tags: Set<string> }>;

const attributeLinks = /\s(?:href|src)="([^"]*)"/g;
const elementIds = /\sid="([^"]*)"/g;

const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Crawls the site served at `baseUrl` from `/index.html`. */
export async function crawlSite(baseUrl: string, referenceAnchors: ReferenceAnchors): Promise<CrawlReport> {
  const site = new URL(baseUrl);
  const report: CrawlReport = { pages: [], checked: [], external: [], broken: [] };
  const status = new Map<string, number>();
  const html = new Map<string, string>();
  /** HTML pages fetched and not crawled yet. */
  const queue: string[] = [];
  const fragments: { from: string; href: string; path: string; fragment: string }[] = [];

  const fetchOnce = async (path: string): Promise<number> => {
    const known = status.get(path);
    if (known !== undefined) return known;
    const response = await fetch(new URL(path, site));
    status.set(path, response.status);
    report.checked.push(path);
    if (response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
      html.set(path, await response.text());
      queue.push(path);
    } else await response.body?.cancel();
    return response.status;
  };

  await fetchOnce('/index.html');
  const visited = new Set<string>();
  while (queue.length > 0) {
    const page = queue.shift() as string;
    if (visited.has(page)) continue;
    visited.add(page);
    report.pages.push(page);
    for (const match of (html.get(page) ?? '').matchAll(attributeLinks)) {
      const href = decode(match[1] ?? '');
      if (href === '' || href.startsWith('mailto:') || href.startsWith('data:')) continue;
      const target = new URL(href, new URL(page, site));
      if (target.origin !== site.origin) {
        report.external.push(target.href);
        continue;
      }
      const path = target.pathname;
      const answer = await fetchOnce(path);
      if (answer !== 200) {
        report.broken.push({ from: page, href, reason: `HTTP ${answer}` });
        continue;
      }
      if (target.hash)
        fragments.push({ from: page, href, path, fragment: decodeURIComponent(target.hash.slice(1)) });
    }
  }

  for (const { from, href, path, fragment } of fragments) {
    const ids = new Set(
      [...(html.get(path) ?? '').matchAll(elementIds)].map((match) => decode(match[1] ?? '')),
    );
    if (ids.has(fragment)) continue;
    const reference = referenceAnchors.get(path);
    if (reference) {
      const [kind, name] = [fragment.split('/')[0], fragment.split('/').slice(1).join('/')];
      const known =
        (kind === 'operation' && reference.operations.has(name)) ||
        (kind === 'tag' && reference.tags.has(name));
      if (!known) report.broken.push({ from, href, reason: `the reference has no #${fragment}` });
      continue;
    }
    report.broken.push({ from, href, reason: `no element with id "${fragment}"` });
  }
  return report;
}
