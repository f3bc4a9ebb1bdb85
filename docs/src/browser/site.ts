// The script of every page of the site (assets/site.js): wires the header's colour-scheme toggle
// and the search dialog. Bundled with its libraries by the docs build; no request leaves the site.
import { setUpSearch } from './search.js';
import { setUpThemeToggle } from './theme.js';

const script = document.currentScript as HTMLScriptElement | null;
/** The site root: this script lives in `<root>/assets/`. */
const root = new URL('../', script?.src ?? document.baseURI);

const toggle = document.querySelector<HTMLButtonElement>('button.theme-toggle');
if (toggle) setUpThemeToggle(toggle);
const searchButton = document.querySelector<HTMLButtonElement>('button.search-open');
const searchDialog = document.querySelector<HTMLDialogElement>('dialog.search');
if (searchButton && searchDialog) setUpSearch(searchButton, searchDialog, root);
