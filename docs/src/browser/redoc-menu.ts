// The reference's menu and anchors before Redoc is live (part of assets/redoc-standin.js): the page
// arrives with Redoc's markup prerendered, but Redoc answers its menu only once it is live, which
// it becomes when the reader first needs one of its own controls (redoc-on-demand.ts). Until then
// this stands in: a tap on an entry of the menu goes to its section (and closes the menu on a
// phone; a section's entry then lists its operations; a section not in the page yet is put there
// first, see redoc-rest.ts), Enter on a focused entry does the same, and the round menu button of a phone opens and
// closes the menu (the `menu-open` class of `#redoc`, which reference.css shows;
// redoc-reference.mjs hands an open menu over to Redoc when it is live). It also keeps the page's
// anchors below the site's sticky header, as Redoc's `scrollYOffset` does once live: the header's
// height is the `--reference-header-height` of <html>, which reference.css gives anchors
// (`scroll-padding-top`) and Redoc's sidebar until Redoc is live. The events it answers go no
// further; once Redoc is live, it steps aside. Its listeners are on the document from the start,
// and find the reference when an event comes, so they answer while the page is still arriving.
import { isRedocLive } from './redoc-on-demand.js';
import { revealSection } from './redoc-rest.js';

/**
 * Goes to the section of menu entry `id` (below the header; put in the page first if it is not in
 * yet, see redoc-rest.ts) and names it in the URL.
 */
function goTo(container: HTMLElement, id: string) {
  container.classList.remove('menu-open');
  void revealSection(container, id).then((section) => {
    if (section) history.replaceState(null, '', `#${id}`);
  });
}

/** Answers a click or Enter on `target` if it is the menu's; true if it did. */
function answer(target: Element | null): boolean {
  const container = document.getElementById('redoc');
  if (!container || !target || isRedocLive(container) || !container.contains(target)) return false;
  const entry = target.closest('.menu-content li[data-item-id]');
  if (entry) {
    // A section's entry shows its operations' entries from then on (reference.css), as Redoc's does.
    if (entry.querySelector(':scope > ul')) entry.setAttribute('aria-expanded', 'true');
    goTo(container, entry.getAttribute('data-item-id') ?? '');
    return true;
  }
  if (target.closest('.redoc-wrap > .menu-content + div')) {
    container.classList.toggle('menu-open');
    return true;
  }
  return false;
}

/**
 * Keeps `--reference-header-height` equal to the sticky header's height, and brings the section
 * the address names (a deep link, or an anchor link followed later) below the header once it is
 * known, putting it in the page first if it is not in yet. Call once the page is parsed.
 */
export function keepAnchorsBelowHeader(container: HTMLElement): void {
  const header = document.querySelector('header.site');
  if (!header) return;
  const measure = () =>
    document.documentElement.style.setProperty(
      '--reference-header-height',
      `${header.getBoundingClientRect().height}px`,
    );
  measure();
  new ResizeObserver(measure).observe(header);
  // A deep link's section, or an anchor link's followed later, not in the page yet is put there.
  const id = () => decodeURIComponent(location.hash.slice(1));
  if (id() && !isRedocLive(container)) void revealSection(container, id());
  addEventListener('hashchange', () => {
    if (id() && !document.getElementById(id()) && !isRedocLive(container))
      void revealSection(container, id());
  });
}

/**
 * Once Redoc is live, the entries the stand-in expanded say what Redoc shows: expanded if their
 * operations' entries are on view.
 */
function handOverExpanded(event: Event) {
  for (const entry of (event.target as Element).querySelectorAll('.menu-content li[aria-expanded="true"]')) {
    const list = entry.querySelector(':scope > ul');
    if (list) entry.setAttribute('aria-expanded', String(getComputedStyle(list).display !== 'none'));
  }
}

/** Wires the menu's stand-in for the reference (`#redoc`). */
export function setUpMenuStandIn(): void {
  // `redoc-ready` does not bubble: it is heard here in the capture phase.
  document.addEventListener('redoc-ready', handOverExpanded, true);
  document.addEventListener(
    'click',
    (event) => {
      if (answer(event.target as Element | null)) event.stopPropagation();
    },
    true,
  );
  document.addEventListener(
    'keydown',
    (event) => {
      const target = event.target as Element | null;
      if (event.key === 'Enter' && target?.matches('.menu-content li[data-item-id]') && answer(target))
        event.stopPropagation();
    },
    true,
  );
}
