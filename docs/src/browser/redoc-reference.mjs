// @ts-check
// Redoc for the reference pages (assets/redoc.js): Redoc 2's library, bundled by the docs build
// with its React and with polished's colour functions taught CSS custom properties
// (polished-css-variables.ts), so the page's theme can name `var(--redoc-…)` colours and switching
// the colour scheme is a change of CSS only, never a second render. Exposes `Redoc.init`, as
// Redoc's standalone bundle does, for the page's inline script.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { RedocStandalone } from 'redoc';

/**
 * Renders the spec at `specUrl` into `element` with `options`; `onLoaded` runs once it is laid out.
 * @param {string} specUrl
 * @param {object} options
 * @param {HTMLElement} element
 * @param {(error?: Error) => void} [onLoaded]
 */
function init(specUrl, options, element, onLoaded) {
  createRoot(element).render(createElement(RedocStandalone, { specUrl, options, onLoaded }));
}

/** @type {any} */ (window).Redoc = { init };
