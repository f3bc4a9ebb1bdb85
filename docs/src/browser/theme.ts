// The colour scheme of every page: dark or light as the system prefers, until the reader picks one
// with the header's toggle (remembered in localStorage). The choice is the `data-theme` attribute
// of <html>, which the style sheets and the references' Redoc theme read; a `themechange` event
// tells the page when it changes. The first choice is made by a small inline script in <head>
// (see page-shell.mjs) so a page never flashes the wrong colours.

/** A colour scheme of the site. */
export type Theme = 'light' | 'dark';

const storageKey = 'mall-api-theme';
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/** The theme the page shows now. */
export const currentTheme = (): Theme =>
  document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';

function show(theme: Theme): void {
  if (theme === currentTheme()) return;
  document.documentElement.dataset.theme = theme;
  document.dispatchEvent(new CustomEvent<Theme>('themechange', { detail: theme }));
}

/**
 * Wires the header's toggle button (its label, "Dark mode" or "Light mode", follows `data-theme`
 * by CSS) and follows the system setting while the reader has not chosen.
 */
export function setUpThemeToggle(button: HTMLButtonElement): void {
  button.addEventListener('click', () => {
    const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
    localStorage.setItem(storageKey, next);
    show(next);
  });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (localStorage.getItem(storageKey) === null) show(systemDark() ? 'dark' : 'light');
  });
}
