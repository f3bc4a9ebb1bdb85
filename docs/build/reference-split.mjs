// @ts-check
// Splits a prerendered reference (redoc-prerender.mjs) into what the page's HTML carries and what
// follows it. On a phone, parsing and laying out a whole reference (0.4–1.6 MB of HTML) held the
// reader's first taps for seconds, while the first screens show only Redoc's intro and the first
// operation. So the page carries Redoc's markup with the first few sections of its content (the
// intro, the first tag and its first operation) and the menu whole; the other sections, each the
// exact markup Redoc rendered, go to `<api>/rest.html` (in page order, each after a `<!--section-->`
// line: plain text to split, not JSON, which costs a phone a long task to parse), which the page's
// stand-in fetches once the page has loaded and puts back section by section while the reader is
// idle, at once up to a section the reader asks for (a deep link, a menu entry, an anchor), and
// wholly before Redoc hydrates, so the markup Redoc finds is the markup it rendered
// (src/browser/redoc-rest.ts).
import { parseFragment } from 'parse5';

/** What precedes each section in rest.html; Redoc's markup never has it (its comments are empty). */
export const sectionMark = '<!--section-->\n';

/** The sections of Redoc's content the page's HTML carries: the intro, the first tag, its first operation. */
export const sectionsInPage = 3;

/**
 * @typedef {{ nodeName: string, attrs?: { name: string, value: string }[], childNodes?: Node[],
 *   sourceCodeLocation?: { startOffset: number, endOffset: number, endTag?: { startOffset: number } } }} Node
 */

/**
 * The first element under `node` whose class list has `name`.
 * @param {Node} node
 * @param {string} name
 * @returns {Node | undefined}
 */
function withClass(node, name) {
  const classes = node.attrs?.find((attribute) => attribute.name === 'class')?.value.split(/\s+/) ?? [];
  if (classes.includes(name)) return node;
  for (const child of node.childNodes ?? []) {
    const found = withClass(child, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * Splits Redoc's prerendered markup: `html` is the markup with the sections of its content after
 * the first `keep` left out, `rest` those sections' markup, in order (empty when there are no more).
 * @param {string} markup Redoc's prerendered markup
 * @param {number} [keep]
 * @returns {{ html: string, rest: string[] }}
 */
export function splitReference(markup, keep = sectionsInPage) {
  const root = /** @type {Node} */ (
    /** @type {unknown} */ (parseFragment(markup, { sourceCodeLocationInfo: true }))
  );
  const content = withClass(root, 'api-content');
  const end = content?.sourceCodeLocation?.endTag?.startOffset;
  if (!content || end === undefined) throw new Error("Redoc's markup has no api-content element");
  const sections = (content.childNodes ?? []).slice(keep);
  const first = sections[0]?.sourceCodeLocation;
  if (!first) return { html: markup, rest: [] };
  const rest = sections.map((section) => {
    const at = section.sourceCodeLocation;
    if (section.nodeName !== 'div' || !at)
      throw new Error(`unexpected ${section.nodeName} in Redoc's content`);
    return markup.slice(at.startOffset, at.endOffset);
  });
  if (rest.join('') !== markup.slice(first.startOffset, end))
    throw new Error("Redoc's content has more than its sections");
  if (rest.some((section) => section.includes(sectionMark.trim())))
    throw new Error(`Redoc's markup has ${sectionMark.trim()}`);
  return { html: markup.slice(0, first.startOffset) + markup.slice(end), rest };
}

/**
 * The text of rest.html: each section after a section mark (and nothing else: what is put in the
 * page must be the sections' markup only, not even a line break, for Redoc's hydration).
 * @param {string[]} rest
 */
export const restHtml = (rest) => rest.map((section) => `${sectionMark}${section}`).join('');
