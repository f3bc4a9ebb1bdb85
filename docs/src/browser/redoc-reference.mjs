// @ts-check
// Redoc for the reference pages (assets/redoc.js): Redoc 2's library, bundled by the docs build
// with its React and with polished's colour functions taught CSS custom properties
// (polished-css-variables.ts), so the page's theme can name `var(--redoc-…)` colours and switching
// the colour scheme is a change of CSS only, never a second render. The page arrives with the
// reference already rendered by the docs build (src/redoc-prerender.mjs, the same Redoc and
// options); `Redoc.show` fetches the spec, builds the same store and hydrates that markup, or
// renders into an empty element (a site built with `--no-prerender`, which the benchmark compares
// against). The page's stand-in (redoc-standin.ts) loads this script when the reader first needs
// Redoc, and answers the menu and Try it until then. The element gets `data-redoc-started` once
// React listens to its events, and `data-redoc-ready` and a `redoc-ready` event once Redoc is live;
// from then on, the code blocks Redoc renders are made reachable by keyboard (they scroll
// sideways; the prerendered ones are so in the HTML, see src/redoc-prerender.mjs).
import { createElement, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppStore, Redoc } from 'redoc';

/**
 * Renders its child, then calls `onReady` once it is on the page.
 * @param {{ onReady: () => void, children?: import('react').ReactNode }} props
 */
function WhenReady({ onReady, children }) {
  useEffect(onReady, [onReady]);
  return children;
}

/**
 * Gives every code block in `element` that has none a `tabindex`, now and as Redoc renders more.
 * @param {HTMLElement} element
 */
function focusableCodeBlocks(element) {
  const update = () => {
    for (const pre of element.querySelectorAll('pre:not([tabindex])')) pre.setAttribute('tabindex', '0');
  };
  update();
  new MutationObserver(update).observe(element, { childList: true, subtree: true });
}

/**
 * Shows the spec at `specUrl` in `element` with `options`: hydrates the prerendered reference, or
 * renders it when the element is empty.
 * @param {string} specUrl
 * @param {object} options
 * @param {HTMLElement} element
 */
async function show(specUrl, options, element) {
  const spec = await (await fetch(specUrl)).json();
  const store = new AppStore(spec, specUrl, options);
  const onReady = () => {
    // A menu the stand-in opened (redoc-menu.ts) is Redoc's to keep open from now on.
    if (element.classList.contains('menu-open')) {
      element.classList.remove('menu-open');
      store.menu.toggleSidebar();
    }
    focusableCodeBlocks(element);
    element.dataset.redocReady = '';
    element.dispatchEvent(new Event('redoc-ready'));
  };
  const app = createElement(WhenReady, { onReady }, createElement(Redoc, { store }));
  // Hydrating a whole reference is seconds of work on a slow phone: as a transition, React does it
  // in slices and the page keeps answering taps in between.
  if (element.firstElementChild) startTransition(() => void hydrateRoot(element, app));
  else createRoot(element).render(app);
  element.dataset.redocStarted = '';
}

/** @type {any} */ (window).Redoc = { show };
