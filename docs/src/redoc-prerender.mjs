// @ts-check
// Redoc's server-side rendering, as redoc-cli's `build` did it, for the docs build (bundled by
// build/redoc-prerender.mjs with the same Redoc, polished shim and styled-components as the
// browser's assets/redoc.js, so the markup and class names match what the page hydrates): a store
// over the reference's spec, `renderToString` of Redoc's `Redoc` component inside a styled-components
// `ServerStyleSheet`, which collects the CSS of what was rendered. Its code blocks, which scroll
// sideways, are made reachable by keyboard (`tabindex`), as the browser does with the ones Redoc
// renders once live. Redoc renders only the selected tab of a sample's tabs, so each operation's
// code samples are also highlighted as Redoc highlights them (its `highlight`), for the page's
// stand-in to show when a tab is tapped before Redoc is live. The browser side is
// src/browser/redoc-reference.mjs.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AppStore, highlight, Redoc } from 'redoc';
import { ServerStyleSheet } from 'styled-components';

/**
 * Each operation's code samples (`x-codeSamples`) as Redoc shows them in a sample tab: operationId
 * → tab label → the highlighted HTML of the sample's code block.
 * @param {{ paths?: Record<string, Record<string, any>> }} spec
 * @returns {Record<string, Record<string, string>>}
 */
function highlightedSamples(spec) {
  /** @type {Record<string, Record<string, string>>} */
  const samples = {};
  for (const item of Object.values(spec.paths ?? {}))
    for (const operation of Object.values(item)) {
      /** @type {{ lang: string, label?: string, source: string }[] | undefined} */
      const codeSamples = operation?.['x-codeSamples'];
      if (!operation?.operationId || !codeSamples) continue;
      samples[operation.operationId] = Object.fromEntries(
        codeSamples.map((sample) => [sample.label ?? sample.lang, highlight(sample.source, sample.lang)]),
      );
    }
  return samples;
}

/**
 * The HTML of the whole reference (every operation, its code blocks focusable), its `<style>`
 * tags, and its code samples highlighted for the sample tabs.
 * @param {object} spec the spec Redoc renders (the `<api>.redoc.json` document)
 * @param {object} options Redoc's options, the same the page hydrates with
 * @returns {{ html: string, styles: string, samples: Record<string, Record<string, string>> }}
 */
export function prerenderRedoc(spec, options) {
  const store = new AppStore(/** @type {any} */ (spec), undefined, options);
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(sheet.collectStyles(createElement(Redoc, { store })));
    return {
      html: html.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"'),
      styles: sheet.getStyleTags(),
      samples: highlightedSamples(spec),
    };
  } finally {
    sheet.seal();
  }
}
