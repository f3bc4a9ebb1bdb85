// @ts-check
// The references' Redoc theme for both colour schemes as ONE theme: each scheme's theme (below) is
// resolved by Redoc's own option handling (its defaults and derived colours filled in), and every
// value the two schemes disagree on becomes a CSS custom property (`var(--redoc-…)`) whose light
// and dark values this module writes as CSS for `:root` and `:root[data-theme="dark"]`. Redoc
// renders once with it; the toggle changes `data-theme` only (see reference-page.mjs).
import redoc from 'redoc';

const fonts = {
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans KR", sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
};

/** Redoc's theme per colour scheme; the dark one keeps every text at 4.5:1 or more. */
export const schemeThemes = {
  light: {
    colors: { primary: { main: '#0b5cad' } },
    typography: fonts,
    sidebar: { width: '260px' },
    rightPanel: { width: '45%' },
  },
  dark: {
    colors: {
      primary: { main: '#8cc4ff' },
      text: { primary: '#e6e9ef', secondary: '#c3cad8' },
      border: { dark: '#5b6478', light: '#2b3345' },
      gray: { 50: '#1c2230', 100: '#262d3d' },
      success: { main: '#6fd08c' },
      error: { main: '#ff9b8f' },
      warning: { main: '#ffc266' },
      responses: {
        success: { color: '#7fe09b', backgroundColor: 'rgba(127, 224, 155, 0.08)' },
        error: { color: '#ffaaa0', backgroundColor: 'rgba(255, 170, 160, 0.08)' },
        redirect: { color: '#ffc266', backgroundColor: 'rgba(255, 194, 102, 0.08)' },
        info: { color: '#8cc4ff', backgroundColor: 'rgba(140, 196, 255, 0.08)' },
      },
    },
    schema: {
      nestedBackground: '#1c2230',
      typeNameColor: '#c3cad8',
      typeTitleColor: '#c3cad8',
      linesColor: '#5b6478',
      requireLabelColor: '#ff9b8f',
      labelsTextSize: '0.9em',
    },
    typography: {
      ...fonts,
      code: { ...fonts.code, color: '#ffb8ad', backgroundColor: '#262d3d' },
      links: { color: '#8cc4ff', visited: '#c9a8ff', hover: '#b8dcff' },
    },
    sidebar: { width: '260px', backgroundColor: '#161b26', textColor: '#e6e9ef', activeTextColor: '#8cc4ff' },
    // The right panel is dark in both schemes: Redoc's own colours, which pass.
    rightPanel: { width: '45%' },
  },
};

/** @param {object} theme Redoc's theme with its defaults and derived values filled in. */
const resolved = (theme) =>
  /** @type {Record<string, unknown>} */ (
    JSON.parse(JSON.stringify(new redoc.RedocNormalizedOptions({ theme }).theme))
  );

/**
 * The one theme Redoc renders with, and the CSS that gives its custom properties their value in
 * each scheme.
 * @param {{ light: object, dark: object }} themes
 * @returns {{ theme: Record<string, unknown>, css: string }}
 */
export function schemeSwitchingTheme(themes = schemeThemes) {
  /** @type {string[]} */
  const light = [];
  /** @type {string[]} */
  const dark = [];
  /** @returns {unknown} */
  const merge = (/** @type {unknown} */ a, /** @type {unknown} */ b, /** @type {string[]} */ path) => {
    if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
      const bRecord = /** @type {Record<string, unknown>} */ (b);
      return Object.fromEntries(
        Object.entries(a).map(([key, value]) => [key, merge(value, bRecord[key], [...path, key])]),
      );
    }
    if (a === b || typeof a !== 'string' || typeof b !== 'string') return a;
    const name = `--redoc-${path.join('-')}`;
    light.push(`  ${name}: ${a};`);
    dark.push(`  ${name}: ${b};`);
    return `var(${name})`;
  };
  const theme = /** @type {Record<string, unknown>} */ (
    merge(resolved(themes.light), resolved(themes.dark), [])
  );
  delete theme.extensionsHook;
  return {
    theme,
    css: `:root {\n${light.join('\n')}\n}\n:root[data-theme="dark"] {\n${dark.join('\n')}\n}\n`,
  };
}
