// @ts-check
// Renders the guides (docs/guides/*.md) into pages of the site with `marked`: each guide in the
// shared page shell with a table of contents of its sections, and an index of all guides. A guide
// starts with a small front matter (`title`, `summary`, `order`). In a guide's text, links to
// other guides are written as `other.md` (they work on GitHub too) and become `other.html`;
// headings get ids from their text; and a paragraph holding only `{{name:argument}}` is replaced
// by generated content handed in by the caller (pictures, tables computed from the specs).
// Markup only: reading files and writing pages is the build script's job.
import { Marked } from 'marked';
import { escapeHtml, pageShell } from './page-shell.mjs';

/** @typedef {{ name: string, title: string, summary: string, order: number, markdown: string }} Guide */
/** @typedef {{ id: string, html: string }} Section */
/** @typedef {Record<string, (argument: string) => string>} Blocks */
/** @typedef {import('./page-shell.mjs').NavItem} NavItem */

/**
 * The id a heading gets: its text, lower-cased, runs of other characters turned into `-`.
 * @param {string} text
 */
export function slug(text) {
  return (
    String(text)
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/&[a-z]+;|&#\d+;/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}

/**
 * Splits `---`-delimited front matter (`key: value` lines) from the Markdown after it.
 * @param {string} name
 * @param {string} source
 * @returns {Guide}
 */
export function parseGuide(name, source) {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match) throw new Error(`guide ${name} has no front matter`);
  const meta = Object.fromEntries(
    (match[1] ?? '').split('\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    }),
  );
  /** @param {string} key */
  const field = (key) => {
    const value = meta[key];
    if (!value) throw new Error(`guide ${name} has no ${key} in its front matter`);
    return value;
  };
  return {
    name,
    title: field('title'),
    summary: field('summary'),
    order: Number(field('order')),
    markdown: source.slice(match[0].length),
  };
}

/**
 * A Markdown renderer with heading ids, guide links, focusable code blocks and captured sections.
 * @param {Section[]} sections
 */
function guideRenderer(sections) {
  const used = new Map();
  return new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const html = this.parser.parseInline(tokens);
        let id = slug(html);
        const seen = used.get(id) ?? 0;
        used.set(id, seen + 1);
        if (seen > 0) id = `${id}-${seen}`;
        if (depth === 2) sections.push({ id, html });
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a>${html}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const text = this.parser.parseInline(tokens);
        const target = /^[a-z0-9-]+\.md(#.*)?$/.test(href) ? href.replace(/\.md(?=#|$)/, '.html') : href;
        const external = /^https?:/.test(target) && !/^http:\/\/127\.0\.0\.1/.test(target);
        return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener"' : ''}>${text}</a>`;
      },
      code({ text, lang }) {
        const language = (lang ?? '').split(/\s/)[0];
        /** @type {Record<string, string>} */
        const labels = { ts: 'TypeScript', sh: 'Shell', json: 'JSON', http: 'HTTP', text: 'Text' };
        const label = labels[language ?? ''];
        return `<pre tabindex="0"${label ? ` aria-label="${label} example"` : ''}><code${language ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(text)}</code></pre>\n`;
      },
      table(token) {
        /** @param {import('marked').Tokens.TableCell} item @param {string} tag */
        const cell = (item, tag) =>
          `<${tag}${item.align ? ` style="text-align:${item.align}"` : ''}${tag === 'th' ? ' scope="col"' : ''}>${this.parser.parseInline(item.tokens)}</${tag}>`;
        const head = `<tr>${token.header.map((item) => cell(item, 'th')).join('')}</tr>`;
        const rows = token.rows
          .map((row) => `<tr>${row.map((item) => cell(item, 'td')).join('')}</tr>`)
          .join('\n');
        return `<div class="table-scroll" tabindex="0"><table>\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table></div>\n`;
      },
    },
  });
}

/**
 * Renders one guide's body: the Markdown, with every `{{name:argument}}` paragraph replaced by
 * `blocks[name](argument)` (a string of HTML). Returns the HTML and the guide's `##` sections.
 * @param {{ name: string, markdown: string }} guide
 * @param {Blocks} blocks
 */
export function renderGuideBody(guide, blocks) {
  /** @type {Section[]} */
  const sections = [];
  const html = /** @type {string} */ (
    guideRenderer(sections).parse(guide.markdown, { async: false })
  ).replace(
    /<p>\{\{([a-z-]+):([a-z0-9-]+)\}\}<\/p>/g,
    (/** @type {string} */ _, /** @type {string} */ name, /** @type {string} */ argument) => {
      const block = blocks[name];
      if (!block) throw new Error(`guide ${guide.name}: unknown block {{${name}:${argument}}}`);
      return block(argument);
    },
  );
  if (/\{\{[a-z-]+:/.test(html))
    throw new Error(`guide ${guide.name}: a {{block}} is not alone in its paragraph`);
  return { html, sections };
}

/**
 * The list of guides every guide page shows beside its text.
 * @param {Guide[]} guides
 * @param {string} current
 */
function guideList(guides, current) {
  return `<nav class="guide-list" aria-label="Guides"><h2>Guides</h2><ol>
${guides
  .map(
    (guide) =>
      `<li><a href="${guide.name}.html"${guide.name === current ? ' aria-current="page"' : ''}>${escapeHtml(guide.title)}</a></li>`,
  )
  .join('\n')}
</ol></nav>`;
}

/**
 * A guide's page: the list of guides, then the guide with its table of contents.
 * @param {Guide} guide
 * @param {Guide[]} guides
 * @param {NavItem[]} nav
 * @param {Blocks} blocks
 */
export function renderGuidePage(guide, guides, nav, blocks) {
  const { html, sections } = renderGuideBody(guide, blocks);
  const index = guides.findIndex((other) => other.name === guide.name);
  const previous = guides[index - 1];
  const next = guides[index + 1];
  const toc = sections.length
    ? `<nav class="toc" aria-label="On this page"><h2>On this page</h2><ul>${sections
        .map((section) => `<li><a href="#${section.id}">${section.html.replace(/<\/?a[^>]*>/g, '')}</a></li>`)
        .join('')}</ul></nav>`
    : '';
  const pager = `<nav class="pager" aria-label="Previous and next guide">${
    previous
      ? `<a href="${previous.name}.html" rel="prev">← ${escapeHtml(previous.title)}</a>`
      : '<span></span>'
  }${next ? `<a href="${next.name}.html" rel="next">${escapeHtml(next.title)} →</a>` : ''}</nav>`;
  return pageShell({
    title: `${guide.title} — mall-api guides`,
    description: guide.summary,
    depth: 1,
    nav,
    current: `guides/${guide.name}.html`,
    body: `<div class="guide-layout">
${guideList(guides, guide.name)}
<article class="guide">
<p class="breadcrumb"><a href="index.html">Guides</a> / ${escapeHtml(guide.title)}</p>
${withContents(html, toc)}
${pager}
</article>
</div>`,
  });
}

/**
 * The guide's HTML with its table of contents after the title and first paragraph (so on a phone
 * they are what the reader sees first), or after the title when a section starts before any
 * paragraph.
 * @param {string} html
 * @param {string} toc
 */
function withContents(html, toc) {
  const title = html.indexOf('</h1>\n');
  if (title < 0) return html;
  const afterTitle = title + '</h1>\n'.length;
  const paragraph = html.indexOf('</p>\n', afterTitle);
  const section = html.indexOf('<h2', afterTitle);
  const at =
    paragraph >= 0 && (section < 0 || paragraph < section) ? paragraph + '</p>\n'.length : afterTitle;
  return `${html.slice(0, at)}${toc}\n${html.slice(at)}`;
}

/**
 * The index of the guides.
 * @param {Guide[]} guides
 * @param {NavItem[]} nav
 */
export function renderGuideIndex(guides, nav) {
  return pageShell({
    title: 'Guides — mall-api documentation',
    description: 'Everything a partner needs to integrate with the mall APIs.',
    depth: 1,
    nav,
    current: 'guides/index.html',
    body: `<h1>Guides</h1>
<p class="lead">Everything you need to integrate with the mall APIs, from the first call to running our
contract tests against your own server. Each guide is written against the same specs, clients and mock
servers the references are generated from.</p>
<ol class="guide-cards">
${guides
  .map(
    (guide) => `<li class="card"><h2><a href="${guide.name}.html">${escapeHtml(guide.title)}</a></h2>
<p>${escapeHtml(guide.summary)}</p></li>`,
  )
  .join('\n')}
</ol>`,
  });
}
