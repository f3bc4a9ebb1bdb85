// @ts-check
// Redoc's server-side rendering, as redoc-cli's `build` did it, for the docs build (bundled by
// build/redoc-prerender.mjs with the same Redoc, polished shim and styled-components as the
// browser's assets/redoc.js, so the markup and class names match what the page hydrates): a store
// over the reference's spec, `renderToString` of Redoc's `Redoc` component inside a styled-components
// `ServerStyleSheet`, which collects the CSS of what was rendered. Its code blocks, which scroll
// sideways, are made reachable by keyboard (`tabindex`), as the browser does with the ones Redoc
// renders once live. The browser side is src/browser/redoc-reference.mjs.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AppStore, Redoc } from 'redoc';
import { ServerStyleSheet } from 'styled-components';

/**
 * The HTML of the whole reference (every operation, its code blocks focusable) and its `<style>` tags.
 * @param {object} spec the spec Redoc renders (the `<api>.redoc.json` document)
 * @param {object} options Redoc's options, the same the page hydrates with
 * @returns {{ html: string, styles: string }}
 */
export function prerenderRedoc(spec, options) {
  const store = new AppStore(/** @type {any} */ (spec), undefined, options);
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(sheet.collectStyles(createElement(Redoc, { store })));
    return { html: html.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"'), styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}
