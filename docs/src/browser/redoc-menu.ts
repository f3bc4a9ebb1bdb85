// The reference's menu before Redoc is live (assets/redoc-menu.js): the page arrives with Redoc's
// markup prerendered, but Redoc answers its menu only once it has hydrated that markup, seconds
// later on a slow phone. Until then this stands in: a tap on an entry of the menu goes to its
// section (and closes the menu on a phone), Enter on a focused entry does the same, and the round
// menu button of a phone opens and closes the menu (the `menu-open` class of `#redoc`, which
// shell.css shows; redoc-reference.mjs hands an open menu over to Redoc when it is live). The events
// it answers go no further; once Redoc is live (`data-redoc-ready`), it steps aside.

const container = document.getElementById('redoc');

/** Whether Redoc is live and answers its menu itself. */
const live = () => container?.dataset.redocReady !== undefined;

/** Scrolls to the section of menu entry `id` below the site's sticky header, and names it in the URL. */
function goTo(id: string) {
  const section = document.getElementById(id);
  if (!section) return;
  const header = document.querySelector('header.site')?.getBoundingClientRect().height ?? 0;
  window.scrollTo({ top: section.getBoundingClientRect().top + window.scrollY - header });
  history.replaceState(null, '', `#${id}`);
  container?.classList.remove('menu-open');
}

/** Answers `event` on `target` if it is the menu's; true if it did. */
function answer(target: Element | null): boolean {
  if (!container || !target || live() || !container.contains(target)) return false;
  const entry = target.closest('.menu-content li[data-item-id]');
  if (entry) {
    goTo(entry.getAttribute('data-item-id') ?? '');
    return true;
  }
  if (target.closest('.redoc-wrap > .menu-content + div')) {
    container.classList.toggle('menu-open');
    return true;
  }
  return false;
}

if (container) {
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
